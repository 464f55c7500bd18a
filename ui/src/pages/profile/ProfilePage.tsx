import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { Field, ProblemBanner } from "../../components/form.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { problemOf } from "../../lib/errors.ts";
import { submitWith } from "../../lib/form-submit.ts";
import { graphql } from "../../lib/graphql.ts";
import { useSession } from "../../lib/session.tsx";

const MyProfile = graphql(`
  query MyProfile { myProfile { canChangePassword rootRole { name } projects } }
`);

const ChangeMyPassword = graphql(`
  mutation ChangeMyPassword($input: ChangePasswordInput!) { changeMyPassword(input: $input) }
`);

/** The signed-in user: who they are, their roles, and their password. */
export default function ProfilePage() {
  const { viewer } = useSession();
  const [result] = useQuery({ query: MyProfile });
  const profile = result.data?.myProfile;
  return (
    <>
      <PageTitle>Your profile</PageTitle>
      <Pending fetching={result.fetching && !profile} error={result.error} />
      {profile && (
        <dl className="details">
          <dt>Name</dt>
          <dd>{viewer.user?.name || viewer.name}</dd>
          <dt>Email</dt>
          <dd>{viewer.user?.email ?? "—"}</dd>
          <dt>Username</dt>
          <dd>{viewer.user?.username ?? "—"}</dd>
          <dt>Root role</dt>
          <dd>{profile.rootRole?.name ?? "none"}</dd>
          <dt>Projects</dt>
          <dd>{profile.projects.length ? profile.projects.join(", ") : "member of none"}</dd>
        </dl>
      )}
      {profile?.canChangePassword && <PasswordForm />}
    </>
  );
}

/** Changing the password ends every session of the user, this one too: they log in again. */
function PasswordForm() {
  const [changed, change] = useMutation(ChangeMyPassword);
  const [done, setDone] = useState(false);
  const submit = submitWith(
    (data) =>
      change({
        input: {
          oldPassword: String(data.get("oldPassword")),
          password: String(data.get("password")),
          confirmPassword: String(data.get("confirmPassword")),
        },
      }),
    (form) => {
      form.reset();
      setDone(true);
    },
  );
  const problem = problemOf(changed.error);
  return (
    <form className="stacked-form card" aria-labelledby="password-title" onSubmit={submit}>
      <h2 id="password-title">Change password</h2>
      <ProblemBanner problem={problem} />
      {done && (
        <p role="status">Your password is changed. Every session has ended: log in again with the new one.</p>
      )}
      <Field
        label="Current password"
        name="oldPassword"
        type="password"
        autoComplete="current-password"
        required
        problem={problem}
      />
      <Field
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        problem={problem}
      />
      <Field
        label="New password again"
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        required
        problem={problem}
      />
      <button type="submit" disabled={changed.fetching}>
        Change password
      </button>
    </form>
  );
}
