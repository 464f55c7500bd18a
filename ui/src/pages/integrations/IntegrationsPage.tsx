import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { useMutation } from "urql";
import { ProblemBanner } from "../../components/form.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { DataTable } from "../../components/table.tsx";
import { graphql } from "../../lib/graphql.ts";
import { useListPage } from "../../lib/list-page.ts";
import { type Addon, AddonFields, AddonForm, addonInput } from "./AddonForm.tsx";

const AddonList = graphql(
  `
  query AddonList { addons { ...AddonFields } }
`,
  [AddonFields],
);

export const ToggleAddon = graphql(
  `
  mutation ToggleAddon($id: Int!, $input: AddonInput!) { updateAddon(id: $id, input: $input) { ...AddonFields } }
`,
  [AddonFields],
);

export const DeleteAddon = graphql(`
  mutation DeleteAddon($id: Int!) { deleteAddon(id: $id) }
`);

/** Integrations (addons): list, create, enable / disable, delete; each links to its page and log. */
export default function IntegrationsPage() {
  const { result, data, problem, perform, confirmThen } = useListPage({ query: AddonList });
  const [creating, setCreating] = useState(false);
  const [, toggle] = useMutation(ToggleAddon);
  const [, remove] = useMutation(DeleteAddon);
  const navigate = useNavigate();
  const addons = data?.addons;

  // The box shows the wanted state at once; the answer (or its error) settles it.
  const [wanted, setWanted] = useState<Record<number, boolean>>({});
  async function setEnabled(addon: Addon, enabled: boolean) {
    setWanted({ ...wanted, [addon.databaseId]: enabled });
    await perform(toggle({ id: addon.databaseId, input: addonInput(addon, { enabled }) }), false);
    setWanted(({ [addon.databaseId]: _, ...rest }) => rest);
  }

  const deleteAddon = (addon: Addon) =>
    confirmThen(`Delete integration ${addon.databaseId} (${addon.provider}) and its delivery log?`, () =>
      remove({ id: addon.databaseId }),
    );

  return (
    <>
      <PageTitle
        actions={
          !creating && (
            <button type="button" onClick={() => setCreating(true)}>
              New integration
            </button>
          )
        }
      >
        Integrations
      </PageTitle>
      {creating && (
        <section aria-labelledby="new-integration">
          <h2 id="new-integration">New integration</h2>
          <AddonForm
            onSaved={(addon) => navigate(`/integrations/${addon.databaseId}`)}
            onCancel={() => setCreating(false)}
          />
        </section>
      )}
      <ProblemBanner problem={problem} showFieldErrors />
      <Pending fetching={result.fetching && !addons} error={result.error} />
      {addons && addons.length === 0 && <p>No integrations yet.</p>}
      {addons && addons.length > 0 && (
        <DataTable columns={["Integration", "Events", "Scope", "Enabled", "Actions"]}>
          {addons.map((addon) => (
            <tr key={addon.id}>
              <th scope="row">
                <Link to={`/integrations/${addon.databaseId}`}>
                  {addon.provider} #{addon.databaseId}
                </Link>
                {addon.description && <p className="hint">{addon.description}</p>}
              </th>
              <td>{addon.events.join(", ")}</td>
              <td>
                {addon.projects.length ? addon.projects.join(", ") : "all projects"};{" "}
                {addon.environments.length ? addon.environments.join(", ") : "all environments"}
              </td>
              <td>
                <label className="check">
                  <input
                    type="checkbox"
                    checked={wanted[addon.databaseId] ?? addon.enabled}
                    onChange={(e) => void setEnabled(addon, e.target.checked)}
                  />
                  Enabled #{addon.databaseId}
                </label>
              </td>
              <td className="row-actions">
                <button type="button" className="danger" onClick={() => void deleteAddon(addon)}>
                  Delete #{addon.databaseId}
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}
