import { type FormEvent, useState } from "react";
import { useMutation, useQuery } from "urql";
import { Field, ProblemBanner, SelectField } from "../../components/form.tsx";
import { Pending } from "../../components/layout.tsx";
import { type ApiProblem, problemOf } from "../../lib/errors.ts";
import { graphql, type ResultOf } from "../../lib/graphql.ts";

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
  const [result, refetch] = useQuery({ query: UserList, requestPolicy: "cache-and-network" });
  const [editing, setEditing] = useState<number | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [resetLink, setResetLink] = useState<{ user: string; url: string } | null>(null);
  const [, remove] = useMutation(DeleteUser);
  const [, reset] = useMutation(ResetLink);
  const reload = () => refetch({ requestPolicy: "network-only" });
  const data = result.data;
  const rootRoles = (data?.roles ?? []).filter((r) => r.type === "root" || r.type === "root-custom");

  async function deleteUser(user: User) {
    if (!window.confirm(`Delete user ${labelOf(user)}? Their sessions and tokens end at once.`)) return;
    const outcome = await remove({ id: user.databaseId });
    setProblem(problemOf(outcome.error));
    if (!outcome.error) reload();
  }

  async function makeResetLink(user: User) {
    if (!user.email) return;
    const outcome = await reset({ email: user.email });
    setProblem(problemOf(outcome.error));
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
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Root role</th>
                <th scope="col">Last seen</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {data.users.map((user) =>
                editing === user.databaseId ? (
                  <tr key={user.id}>
                    <td colSpan={4}>
                      <EditUserForm user={user} roles={rootRoles} onDone={() => setEditing(null)} />
                    </td>
                  </tr>
                ) : (
                  <tr key={user.id}>
                    <th scope="row">
                      {labelOf(user)}
                      <p className="hint">{[user.username, user.email].filter(Boolean).join(" · ")}</p>
                    </th>
                    <td>{user.rootRole}</td>
                    <td>{user.seenAt ? new Date(user.seenAt).toLocaleString() : "never"}</td>
                    <td className="row-actions">
                      <button type="button" className="secondary" onClick={() => setEditing(user.databaseId)}>
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
            </tbody>
          </table>
        </div>
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
      {props.roles.map((role) => (
        <option key={role.id} value={role.name}>
          {role.name}
        </option>
      ))}
    </SelectField>
  );
}

function CreateUserForm(props: { roles: { id: number; name: string }[]; onCreated(): void }) {
  const [result, create] = useMutation(CreateUser);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const text = (key: string) => String(data.get(key) || "") || null;
    const outcome = await create({
      input: {
        name: text("name"),
        username: text("username"),
        email: text("email"),
        password: text("password"),
        rootRole: text("rootRole"),
      },
    });
    if (!outcome.error) {
      form.reset();
      props.onCreated();
    }
  }
  const problem = problemOf(result.error);
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
      <button type="submit" disabled={result.fetching}>
        Create user
      </button>
      <ProblemBanner problem={problem} />
    </form>
  );
}

function EditUserForm(props: { user: User; roles: { id: number; name: string }[]; onDone(): void }) {
  const [result, update] = useMutation(UpdateUser);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const outcome = await update({
      id: props.user.databaseId,
      input: {
        name: String(data.get("name") || "") || null,
        email: String(data.get("email") || "") || null,
        rootRole: String(data.get("rootRole")),
      },
    });
    if (!outcome.error) props.onDone();
  }
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
      <button type="submit" disabled={result.fetching}>
        Save user
      </button>
      <button type="button" className="secondary" onClick={props.onDone}>
        Cancel
      </button>
      <ProblemBanner problem={problem} />
    </form>
  );
}
