import { type FormEvent, type ReactNode, useEffect, useState } from "react";

/** What a public endpoint answered: its message on failure (the API's `{message}`). */
export async function postJson(path: string, body: unknown): Promise<string | null> {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return response.ok ? null : await messageOf(response);
}

export async function messageOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => ({}))) as { message?: string };
  return body.message ?? `The server answered ${response.status}.`;
}

/** Whether a link's secret is usable, asked once: null while asking, else the problem or "". */
export function useLinkCheck(check: () => Promise<Response>): string | null {
  const [problem, setProblem] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the link is checked once, when the page opens
  useEffect(() => {
    check().then(
      async (response) => setProblem(response.ok ? "" : await messageOf(response)),
      () => setProblem("The server could not be reached."),
    );
  }, []);
  return problem;
}

/**
 * A page for someone with no session (an invite or a password-reset link): a form whose
 * `submit` returns the API's message on failure, and `done` once it succeeded.
 */
export function PublicForm(props: {
  title: string;
  linkProblem: string | null;
  submit(data: FormData): Promise<string | null>;
  submitLabel: string;
  done: ReactNode;
  children: ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [succeeded, setSucceeded] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    const problem = await props.submit(new FormData(event.currentTarget));
    setBusy(false);
    setError(problem);
    setSucceeded(problem === null);
  }

  let content: ReactNode;
  if (props.linkProblem === null) content = <p className="loading">Checking the link…</p>;
  else if (props.linkProblem) content = <p role="alert">This link cannot be used: {props.linkProblem}</p>;
  else if (succeeded) content = props.done;
  else
    content = (
      <>
        {props.children}
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {props.submitLabel}
        </button>
      </>
    );
  return (
    <main className="login" id="main">
      <form onSubmit={onSubmit} aria-labelledby="public-title">
        <h1 id="public-title">{props.title}</h1>
        {content}
        <p>
          <a href="/">Go to the login page</a>
        </p>
      </form>
    </main>
  );
}
