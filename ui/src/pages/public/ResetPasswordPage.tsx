import { Field } from "../../components/form.tsx";
import { PublicForm, postJson, useLinkCheck } from "./PublicForm.tsx";

/** `/reset-password?token=TOKEN`: sets a new password with a reset link (`/auth/reset/password`). */
export default function ResetPasswordPage() {
  const token = new URLSearchParams(location.search).get("token") ?? "";
  const linkProblem = useLinkCheck(() => fetch(`/auth/reset/validate?token=${encodeURIComponent(token)}`));
  return (
    <PublicForm
      title="Choose a new password"
      linkProblem={token ? linkProblem : "it has no token in it."}
      submitLabel="Set password"
      submit={(data) => postJson("/auth/reset/password", { token, password: String(data.get("password")) })}
      done={<p role="status">Your password is set: log in with it.</p>}
    >
      <Field label="New password" name="password" type="password" autoComplete="new-password" required />
    </PublicForm>
  );
}
