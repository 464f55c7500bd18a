import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useMutation, useQuery } from "urql";
import { ProblemBanner } from "../../components/form.tsx";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { DataTable } from "../../components/table.tsx";
import { type ApiProblem, problemOf } from "../../lib/errors.ts";
import { graphql } from "../../lib/graphql.ts";
import { AddonFields, AddonForm } from "./AddonForm.tsx";
import { DeleteAddon } from "./IntegrationsPage.tsx";

const AddonQuery = graphql(
  `
  query Addon($id: Int!) { addon(id: $id) { ...AddonFields } }
`,
  [AddonFields],
);

const DeliveryLog = graphql(`
  query AddonEvents($id: Int!, $first: Int, $offset: Int) {
    addonEvents(id: $id, first: $first, offset: $offset) {
      id integrationId createdAt state stateDetails event details
    }
  }
`);

const PAGE_SIZE = 50;

/** One integration: its configuration (editable) and its delivery log. */
export default function IntegrationPage() {
  const id = Number(useParams().id);
  const [result] = useQuery({ query: AddonQuery, variables: { id }, pause: !Number.isInteger(id) });
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [saved, setSaved] = useState(false);
  const [, remove] = useMutation(DeleteAddon);
  const navigate = useNavigate();
  const addon = result.data?.addon;

  async function deleteAddon() {
    if (!window.confirm(`Delete integration ${id} and its delivery log?`)) return;
    const outcome = await remove({ id });
    setProblem(problemOf(outcome.error));
    if (!outcome.error) navigate("/integrations");
  }

  return (
    <>
      <PageTitle
        actions={
          addon && (
            <button type="button" className="danger" onClick={() => void deleteAddon()}>
              Delete integration
            </button>
          )
        }
      >
        Integration {addon ? `${addon.provider} #${addon.databaseId}` : `#${id}`}
      </PageTitle>
      <p>
        <Link to="/integrations">All integrations</Link>
      </p>
      <ProblemBanner problem={problem} showFieldErrors />
      <Pending fetching={result.fetching && !addon} error={result.error} />
      {addon && (
        <>
          <section aria-labelledby="integration-configuration">
            <h2 id="integration-configuration">Configuration</h2>
            {saved && <output className="hint">Saved.</output>}
            <AddonForm addon={addon} onSaved={() => setSaved(true)} />
          </section>
          <DeliveryLogSection id={addon.databaseId} />
        </>
      )}
    </>
  );
}

function DeliveryLogSection(props: { id: number }) {
  const [offset, setOffset] = useState(0);
  const [result, refetch] = useQuery({
    query: DeliveryLog,
    variables: { id: props.id, first: PAGE_SIZE, offset },
    requestPolicy: "cache-and-network",
  });
  const deliveries = result.data?.addonEvents;
  return (
    <section aria-labelledby="delivery-log">
      <h2 id="delivery-log">Delivery log</h2>
      <div className="toolbar">
        <button
          type="button"
          className="secondary"
          onClick={() => refetch({ requestPolicy: "network-only" })}
        >
          Refresh log
        </button>
      </div>
      <Pending fetching={result.fetching && !deliveries} error={result.error} />
      {deliveries && deliveries.length === 0 && <p>Nothing delivered yet.</p>}
      {deliveries && deliveries.length > 0 && (
        <DataTable columns={["When", "Event", "State", "Details"]}>
          {deliveries.map((delivery) => {
            const event = delivery.event as { type?: string; featureName?: string | null };
            return (
              <tr key={delivery.id}>
                <td>{new Date(delivery.createdAt).toLocaleString()}</td>
                <td>
                  {event.type}
                  {event.featureName && ` (${event.featureName})`}
                </td>
                <td>
                  <span className={delivery.state === "success" ? "badge on" : "badge off"}>
                    {delivery.state}
                  </span>
                </td>
                <td>
                  {delivery.stateDetails}
                  <details>
                    <summary>Request</summary>
                    <pre>{JSON.stringify(delivery.details, null, 2)}</pre>
                  </details>
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
      <div className="pager">
        <button
          type="button"
          disabled={offset === 0}
          onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}
        >
          Newer deliveries
        </button>
        <button
          type="button"
          disabled={(deliveries?.length ?? 0) < PAGE_SIZE}
          onClick={() => setOffset(offset + PAGE_SIZE)}
        >
          Older deliveries
        </button>
      </div>
    </section>
  );
}
