import { useState } from "react";
import { Link } from "react-router";
import { useQuery } from "urql";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { DataTable, WideRow } from "../../components/table.tsx";
import { graphql } from "../../lib/graphql.ts";

const Applications = graphql(`
  query Applications($query: String) {
    clientApplications(first: 100, query: $query) {
      totalCount
      edges {
        node {
          appName
          description
          lastSeenAt
          instances { instanceId environment sdkType sdkVersion lastSeenAt }
          seenFlags { featureName project environments }
        }
      }
    }
  }
`);

/** The applications SDKs registered: when each was last seen, its instances, the flags it asks for. */
export default function ApplicationsPage() {
  const [query, setQuery] = useState("");
  const [result] = useQuery({
    query: Applications,
    variables: { query: query.trim() || null },
    requestPolicy: "cache-and-network",
  });
  const connection = result.data?.clientApplications;
  return (
    <>
      <PageTitle>Applications</PageTitle>
      <div className="field">
        <label htmlFor="application-search">Search applications</label>
        <input id="application-search" value={query} onChange={(e) => setQuery(e.target.value)} />
      </div>
      <Pending fetching={result.fetching && !connection} error={result.error} />
      {connection && (
        <DataTable
          caption={<caption className="hint">{connection.totalCount} application(s)</caption>}
          columns={["Application", "Last seen", "Instances", "Flags it evaluates"]}
        >
          {connection.edges.length === 0 && (
            <WideRow columns={4}>
              No application has reported yet. SDKs register when they start, with any client or frontend
              token.
            </WideRow>
          )}
          {connection.edges.map(({ node: app }) => (
            <tr key={app.appName}>
              <th scope="row">
                {app.appName}
                {app.description && <div className="description">{app.description}</div>}
              </th>
              <td>{new Date(app.lastSeenAt).toLocaleString()}</td>
              <td>
                <ul className="plain-list" aria-label={`Instances of ${app.appName}`}>
                  {app.instances.map((i) => (
                    <li key={`${i.instanceId}:${i.environment}`}>
                      {i.instanceId}{" "}
                      <span className="muted">
                        ({i.environment}, {i.sdkVersion ?? i.sdkType})
                      </span>
                    </li>
                  ))}
                </ul>
              </td>
              <td>
                {app.seenFlags.map((f) => (
                  <Link
                    key={`${f.project}/${f.featureName}`}
                    className="badge"
                    to={`/projects/${f.project}/flags/${f.featureName}`}
                  >
                    {f.featureName}
                  </Link>
                ))}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}
