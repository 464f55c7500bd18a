import { Field } from "../../components/form.tsx";
import { PublicForm, postJson, useLinkCheck } from "./PublicForm.tsx";

/** `/new-user?invite=SECRET`: signs up with an invite link (`/invite/:secret/signup`). */
export default function NewUserPage() {
  const secret = new URLSearchParams(location.search).get("invite") ?? "";
  const path = `/invite/${encodeURIComponent(secret)}`;
  const linkProblem = useLinkCheck(() => fetch(`${path}/validate`));
  return (
    <PublicForm
      title="Join Vexil"
      linkProblem={secret ? linkProblem : "it has no invite in it."}
      submitLabel="Create account"
      submit={(data) =>
        postJson(`${path}/signup`, {
          name: String(data.get("name")),
          email: String(data.get("email")),
          ...(data.get("username") ? { username: String(data.get("username")) } : {}),
          password: String(data.get("password")),
        })
      }
      done={<p role="status">Your account is ready: log in with your email and password.</p>}
    >
      <Field label="Name" name="name" autoComplete="name" required />
      <Field label="Email" name="email" type="email" autoComplete="email" required />
      <Field label="Username (optional)" name="username" autoComplete="username" />
      <Field label="Password" name="password" type="password" autoComplete="new-password" required />
    </PublicForm>
  );
}
