import { useState } from "react";
import { useMutation } from "urql";
import { NamedOptions } from "../../components/choices.tsx";
import { Field, ProblemBanner, SelectField, SubmitButtons } from "../../components/form.tsx";
import { Pending } from "../../components/layout.tsx";
import { DataTable, WideRow } from "../../components/table.tsx";
import { type ApiProblem, problemOf } from "../../lib/errors.ts";
import { optionalText, submitWith, useCreateForm } from "../../lib/form-submit.ts";
import { graphql, type ResultOf } from "../../lib/graphql.ts";
import { useListPage, useOpenForm } from "../../lib/list-page.ts";

const UserList = graphql(`
  query UserList {
    users { id databaseId name username email rootRole imageUrl createdAt seenAt isActive }
    roles { id name type }
  }
`);

const CreateUser = graphql(`
  mutation CreateUser($input: CreateUserInput!) { createUser(input: $input) { id databaseId name rootRole } }
`);

const UpdateUser = graphql(`
  mutation UpdateUser($id: Int!, $input: UpdateUserInput!) {
    updateUser(id: $id, input: $input) { id name email rootRole }
  }
`);

const DeleteUser = graphql(`
  mutation DeleteUser($id: Int!) { deleteUser(id: $id) }
`);

const ResetLink = graphql(`
  mutation CreateResetPasswordLink($email: String!) { createResetPasswordLink(email: $email) { resetPasswordUrl } }
`);

type Data = ResultOf<typeof UserList>;
type User = Data["users"][number];

function labelOf(user: User): string {
  return user.name || user.username || user.email || `user ${user.databaseId}`;
}

/** Users: create with a root role, edit, delete, and password reset links. */
export function UsersSection() {
  const { result, data, reload, problem, perform, confirmThen } = useListPage({ query: UserList });
  const forms = useOpenForm(reload);
  const [resetLink, setResetLink] = useState<{ user: string; url: string } | null>(null);
  const [, remove] = useMutation(DeleteUser);
  const [, reset] = useMutation(ResetLink);
  const rootRoles = (data?.roles ?? []).filter((r) => r.type === "root" || r.type === "root-custom");
  const deleteUser = (user: User) =>
    confirmThen(`Delete user ${labelOf(user)}? Their sessions and tokens end at once.`, () =>
      remove({ id: user.databaseId }),
    );

  async function makeResetLink(user: User) {
    if (!user.email) return;
    const outcome = await perform(reset({ email: user.email }), false);
    const url = outcome.data?.createResetPasswordLink.resetPasswordUrl;
    setResetLink(url ? { user: labelOf(user), url } : null);
  }

  return (
    <section aria-labelledby="users-list">
      <h2 id="users-list">Users</h2>
      <CreateUserForm roles={rootRoles} onCreated={reload} />
      <ProblemBanner problem={problem} showFieldErrors />
      {resetLink && (
        <div className="banner info" role="status">
          <label className="secret-value">
            Password reset link for {resetLink.user}
            <input readOnly value={resetLink.url} onFocus={(e) => e.target.select()} />
          </label>
          <p className="hint">Hand it to the user: it lets them choose a new password.</p>
        </div>
      )}
      <Pending fetching={result.fetching && !data} error={result.error} />
      {data && (
        <DataTable columns={["User", "Root role", "Last seen", "Actions"]}>
          {data.users.map((user) =>
            forms.open === user.databaseId ? (
              <WideRow key={user.id} columns={4}>
                <EditUserForm user={user} roles={rootRoles} onDone={forms.close} />
              </WideRow>
            ) : (
              <tr key={user.id}>
                <th scope="row">
                  {labelOf(user)}
                  <p className="hint">{[user.username, user.email].filter(Boolean).join(" · ")}</p>
                </th>
                <td>{user.rootRole}</td>
                <td>{user.seenAt ? new Date(user.seenAt).toLocaleString() : "never"}</td>
                <td className="row-actions">
                  <button type="button" className="secondary" onClick={() => forms.edit(user.databaseId)}>
                    Edit {labelOf(user)}
                  </button>
                  {user.email && (
                    <button type="button" className="secondary" onClick={() => void makeResetLink(user)}>
                      Reset password of {labelOf(user)}
                    </button>
                  )}
                  <button type="button" className="danger" onClick={() => void deleteUser(user)}>
                    Delete {labelOf(user)}
                  </button>
                </td>
              </tr>
            ),
          )}
        </DataTable>
      )}
    </section>
  );
}

function RoleSelect(props: {
  roles: { id: number; name: string }[];
  defaultValue: string;
  problem: ApiProblem | null;
}) {
  return (
    <SelectField label="Root role" name="rootRole" defaultValue={props.defaultValue} problem={props.problem}>
      <NamedOptions items={props.roles} valueOf={(role) => role.name} />
    </SelectField>
  );
}

function CreateUserForm(props: { roles: { id: number; name: string }[]; onCreated(): void }) {
  const { submit, busy, problem } = useCreateForm(
    CreateUser,
    (data) => {
      const text = (key: string) => optionalText(data, key);
      return {
        input: {
          name: text("name"),
          username: text("username"),
          email: text("email"),
          password: text("password"),
          rootRole: text("rootRole"),
        },
      };
    },
    props.onCreated,
  );
  return (
    <form className="inline-form" onSubmit={submit} aria-label="New user">
      <Field label="Name" name="name" problem={problem} />
      <Field label="Username" name="username" autoComplete="off" problem={problem} />
      <Field label="Email" name="email" type="email" problem={problem} />
      <Field
        label="Initial password (optional)"
        name="password"
        type="password"
        autoComplete="new-password"
        problem={problem}
      />
      <RoleSelect roles={props.roles} defaultValue="Viewer" problem={problem} />
      <button type="submit" disabled={busy}>
        Create user
      </button>
      <ProblemBanner problem={problem} />
    </form>
  );
}

function EditUserForm(props: { user: User; roles: { id: number; name: string }[]; onDone(): void }) {
  const [result, update] = useMutation(UpdateUser);
  const submit = submitWith(
    (data) =>
      update({
        id: props.user.databaseId,
        input: {
          name: optionalText(data, "name"),
          email: optionalText(data, "email"),
          rootRole: String(data.get("rootRole")),
        },
      }),
    props.onDone,
  );
  const problem = problemOf(result.error);
  return (
    <form className="inline-form" onSubmit={submit} aria-label={`Edit user ${labelOf(props.user)}`}>
      <Field label="Name" name="name" defaultValue={props.user.name ?? ""} problem={problem} />
      <Field
        label="Email"
        name="email"
        type="email"
        defaultValue={props.user.email ?? ""}
        problem={problem}
      />
      <RoleSelect roles={props.roles} defaultValue={props.user.rootRole} problem={problem} />
      <SubmitButtons busy={result.fetching} onCancel={props.onDone}>
        Save user
      </SubmitButtons>
      <ProblemBanner problem={problem} />
    </form>
  );
}
