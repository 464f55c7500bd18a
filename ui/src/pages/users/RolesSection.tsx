import { type FormEvent, useState } from "react";
import { useMutation, useQuery } from "urql";
import { Field, ProblemBanner, SelectField } from "../../components/form.tsx";
import { Pending } from "../../components/layout.tsx";
import { type ApiProblem, problemOf } from "../../lib/errors.ts";
import { graphql, type ResultOf } from "../../lib/graphql.ts";

const RoleList = graphql(`
  query RoleList {
    roles { id name type description permissions { name environment } }
    permissions { name displayName type }
    environments { id name }
  }
`);

const CreateRole = graphql(`
  mutation CreateRole($input: RoleInput!) { createRole(input: $input) { id name } }
`);

const UpdateRole = graphql(`
  mutation UpdateRole($id: Int!, $input: RoleInput!) {
    updateRole(id: $id, input: $input) { id name type description permissions { name environment } }
  }
`);

const DeleteRole = graphql(`
  mutation DeleteRole($id: Int!) { deleteRole(id: $id) }
`);

type Data = ResultOf<typeof RoleList>;
type Role = Data["roles"][number];

const isCustom = (role: Role) => role.type === "custom" || role.type === "root-custom";

/** Roles: the predefined ones (read-only) and custom ones made of permissions. */
export function RolesSection() {
  const [result, refetch] = useQuery({ query: RoleList, requestPolicy: "cache-and-network" });
  const [editing, setEditing] = useState<number | "new" | null>(null);
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [, remove] = useMutation(DeleteRole);
  const reload = () => refetch({ requestPolicy: "network-only" });
  const data = result.data;

  async function deleteRole(role: Role) {
    if (!window.confirm(`Delete role ${role.name}? Only a role nobody holds can be deleted.`)) return;
    const outcome = await remove({ id: role.id });
    setProblem(problemOf(outcome.error));
    if (!outcome.error) reload();
  }

  return (
    <section aria-labelledby="roles-list">
      <h2 id="roles-list">Roles</h2>
      {editing !== "new" && (
        <button type="button" onClick={() => setEditing("new")}>
          New custom role
        </button>
      )}
      {editing === "new" && data && (
        <RoleForm
          data={data}
          onDone={(saved) => {
            setEditing(null);
            if (saved) reload();
          }}
        />
      )}
      <ProblemBanner problem={problem} showFieldErrors />
      <Pending fetching={result.fetching && !data} error={result.error} />
      {data && (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Role</th>
                <th scope="col">Type</th>
                <th scope="col">Permissions</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {data.roles.map((role) =>
                editing === role.id ? (
                  <tr key={role.id}>
                    <td colSpan={4}>
                      <RoleForm data={data} role={role} onDone={() => setEditing(null)} />
                    </td>
                  </tr>
                ) : (
                  <tr key={role.id}>
                    <th scope="row">
                      {role.name}
                      {role.description && <p className="hint">{role.description}</p>}
                    </th>
                    <td>{role.type}</td>
                    <td>
                      <details>
                        <summary>
                          {role.permissions.length === 1
                            ? "1 permission"
                            : `${role.permissions.length} permissions`}
                        </summary>
                        <ul className="plain-list permission-list">
                          {role.permissions.map((p) => (
                            <li key={`${p.name}:${p.environment ?? ""}`}>
                              <code>{p.name}</code>
                              {p.environment && ` in ${p.environment}`}
                            </li>
                          ))}
                        </ul>
                      </details>
                    </td>
                    <td className="row-actions">
                      {isCustom(role) && (
                        <>
                          <button type="button" className="secondary" onClick={() => setEditing(role.id)}>
                            Edit role {role.name}
                          </button>
                          <button type="button" className="danger" onClick={() => void deleteRole(role)}>
                            Delete role {role.name}
                          </button>
                        </>
                      )}
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

type Chosen = Map<string, string | null>;

/** Creates a custom role or replaces `role`: name, kind, and its permissions. */
function RoleForm(props: { data: Data; role?: Role; onDone(saved: boolean): void }) {
  const existing = props.role;
  const [chosen, setChosen] = useState<Chosen>(
    new Map(existing?.permissions.map((p) => [p.name, p.environment ?? null]) ?? []),
  );
  const [created, create] = useMutation(CreateRole);
  const [updated, update] = useMutation(UpdateRole);

  function choose(name: string, on: boolean, environment: string | null = null) {
    const next = new Map(chosen);
    if (on) next.set(name, environment);
    else next.delete(name);
    setChosen(next);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input = {
      name: String(data.get("name")),
      description: String(data.get("description") || "") || null,
      type: String(data.get("type")),
      permissions: [...chosen].map(([name, environment]) => ({ name, environment })),
    };
    const outcome = existing ? await update({ id: existing.id, input }) : await create({ input });
    if (!outcome.error) props.onDone(true);
  }

  const problem = problemOf(existing ? updated.error : created.error);
  const groups = ["root", "project", "environment"].map((type) => ({
    type,
    permissions: props.data.permissions.filter((p) => p.type === type),
  }));
  return (
    <form
      className="stacked-form"
      onSubmit={submit}
      aria-label={existing ? `Edit role ${existing.name}` : "New role"}
    >
      <Field label="Role name" name="name" defaultValue={existing?.name ?? ""} required problem={problem} />
      <Field
        label="Description"
        name="description"
        defaultValue={existing?.description ?? ""}
        problem={problem}
      />
      <SelectField label="Role kind" name="type" defaultValue={existing?.type ?? "custom"} problem={problem}>
        <option value="custom">Project role (custom)</option>
        <option value="root-custom">Root role (root-custom)</option>
      </SelectField>
      {groups
        .filter((g) => g.permissions.length > 0)
        .map((group) => (
          <fieldset key={group.type} className="checkbox-group">
            <legend>{group.type[0]?.toUpperCase() + group.type.slice(1)} permissions</legend>
            {group.permissions.map((permission) => (
              <div key={permission.name} className="permission">
                <label>
                  <input
                    type="checkbox"
                    checked={chosen.has(permission.name)}
                    onChange={(e) => choose(permission.name, e.target.checked)}
                  />
                  {permission.displayName} <code className="hint">{permission.name}</code>
                </label>
                {group.type === "environment" && chosen.has(permission.name) && (
                  <select
                    aria-label={`Environment of ${permission.displayName}`}
                    value={chosen.get(permission.name) ?? ""}
                    onChange={(e) => choose(permission.name, true, e.target.value || null)}
                  >
                    <option value="">Every environment</option>
                    {props.data.environments.map((env) => (
                      <option key={env.id}>{env.name}</option>
                    ))}
                  </select>
                )}
              </div>
            ))}
          </fieldset>
        ))}
      {problem?.fields.permissions && (
        <p className="field-error" role="alert">
          {problem.fields.permissions}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" disabled={created.fetching || updated.fetching}>
          {existing ? "Save role" : "Create role"}
        </button>
        <button type="button" className="secondary" onClick={() => props.onDone(false)}>
          Cancel
        </button>
      </div>
      <ProblemBanner problem={problem} />
    </form>
  );
}
