import { useState } from "react";
import { useMutation } from "urql";
import { CreateOrEditForm, Field, ProblemBanner, SelectField } from "../../components/form.tsx";
import { Pending } from "../../components/layout.tsx";
import { DataTable, WideRow } from "../../components/table.tsx";
import { optionalText, submitWith, useCreateOrUpdate } from "../../lib/form-submit.ts";
import { graphql, type ResultOf } from "../../lib/graphql.ts";
import { useListPage, useOpenForm } from "../../lib/list-page.ts";

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
  const { result, data, reload, problem, confirmThen } = useListPage({ query: RoleList });
  const forms = useOpenForm(reload);
  const [, remove] = useMutation(DeleteRole);
  const deleteRole = (role: Role) =>
    confirmThen(`Delete role ${role.name}? Only a role nobody holds can be deleted.`, () =>
      remove({ id: role.id }),
    );

  return (
    <section aria-labelledby="roles-list">
      <h2 id="roles-list">Roles</h2>
      {forms.open !== "new" && (
        <button type="button" onClick={forms.openNew}>
          New custom role
        </button>
      )}
      {forms.open === "new" && data && <RoleForm data={data} onDone={forms.closeNew} />}
      <ProblemBanner problem={problem} showFieldErrors />
      <Pending fetching={result.fetching && !data} error={result.error} />
      {data && (
        <DataTable columns={["Role", "Type", "Permissions", "Actions"]}>
          {data.roles.map((role) =>
            forms.open === role.id ? (
              <WideRow key={role.id} columns={4}>
                <RoleForm data={data} role={role} onDone={forms.close} />
              </WideRow>
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
                      <button type="button" className="secondary" onClick={() => forms.edit(role.id)}>
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
        </DataTable>
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
  const { create, update, busy, problem } = useCreateOrUpdate(CreateRole, UpdateRole, existing);

  function choose(name: string, on: boolean, environment: string | null = null) {
    const next = new Map(chosen);
    if (on) next.set(name, environment);
    else next.delete(name);
    setChosen(next);
  }

  const submit = submitWith(
    (data) => {
      const input = {
        name: String(data.get("name")),
        description: optionalText(data, "description"),
        type: String(data.get("type")),
        permissions: [...chosen].map(([name, environment]) => ({ name, environment })),
      };
      return existing ? update({ id: existing.id, input }) : create({ input });
    },
    () => props.onDone(true),
  );

  const groups = ["root", "project", "environment"].map((type) => ({
    type,
    permissions: props.data.permissions.filter((p) => p.type === type),
  }));
  return (
    <CreateOrEditForm
      noun="role"
      editing={existing?.name}
      className="stacked-form"
      onSubmit={submit}
      busy={busy}
      problem={problem}
      onCancel={() => props.onDone(false)}
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
    </CreateOrEditForm>
  );
}
