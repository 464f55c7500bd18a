import { type FormEvent, useState } from "react";

/** Password login (`POST /auth/simple/login`): the server sets the session and CSRF cookies. */
export function LoginPage(props: { login(username: string, password: string): Promise<string | null> }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(await props.login(String(form.get("username")), String(form.get("password"))));
    setBusy(false);
  }

  return (
    <main className="login" id="main">
      <form onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">Log in to Vexil</h1>
        <div className="field">
          <label htmlFor="username">Username or email</label>
          <input id="username" name="username" autoComplete="username" required />
        </div>
        <div className="field">
          <label htmlFor="password">Password</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required />
        </div>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          Log in
        </button>
      </form>
    </main>
  );
}
