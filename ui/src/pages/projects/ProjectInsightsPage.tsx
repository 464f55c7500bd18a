import { Link, useParams } from "react-router";
import { useQuery } from "urql";
import { PageTitle, Pending } from "../../components/layout.tsx";
import { DataTable, WideRow } from "../../components/table.tsx";
import { graphql, type ResultOf } from "../../lib/graphql.ts";
import { useRefetchOnEvents } from "../../lib/live.ts";

const Insights = graphql(`
  query ProjectInsightsPage($id: String!) {
    projectOverview(id: $id) {
      id databaseId name
      features { id name type stale potentiallyStale }
    }
    projectInsights(projectId: $id) {
      health { rating activeCount staleCount potentiallyStaleCount }
      technicalDebt { rating }
      leadTime { projectAverage features { name timeToProduction } }
      featureTypeCounts { type count }
      members { currentMembers change }
      stats {
        createdCurrentWindow createdPastWindow
        archivedCurrentWindow archivedPastWindow
        projectActivityCurrentWindow projectActivityPastWindow
        projectMembersAddedCurrentWindow avgTimeToProdCurrentWindow
      }
    }
  }
`);

type Data = ResultOf<typeof Insights>;

const days = (value: number) => `${value.toFixed(1)} days`;

/**
 * A project's insights, as Unleash's insights page: health and what lowers it (the stale flags),
 * lead time to production, flag types, and the last 30 days against the 30 before.
 */
export default function ProjectInsightsPage() {
  const projectId = useParams().project ?? "";
  const [result, refetch] = useQuery({
    query: Insights,
    variables: { id: projectId },
    requestPolicy: "cache-and-network",
  });
  useRefetchOnEvents({ projects: [projectId] }, () => refetch({ requestPolicy: "network-only" }));
  const data = result.data;
  return (
    <>
      <PageTitle>{data ? `Insights: ${data.projectOverview.name}` : "Project insights"}</PageTitle>
      <p>
        <Link to={`/projects/${encodeURIComponent(projectId)}`}>Back to the project</Link>
      </p>
      <Pending fetching={result.fetching && !data} error={result.error} />
      {data && (
        <>
          <Health data={data} />
          <LeadTime data={data} />
          <FlagTypes data={data} />
          <Activity data={data} />
        </>
      )}
    </>
  );
}

function Health({ data }: { data: Data }) {
  const { health, technicalDebt } = data.projectInsights;
  const project = data.projectOverview;
  const stale = project.features.filter((f) => f.stale || f.potentiallyStale);
  return (
    <section aria-labelledby="insights-health">
      <h2 id="insights-health">Health</h2>
      <dl className="summary">
        <dt>Health</dt>
        <dd>{health.rating}%</dd>
        <dt>Technical debt</dt>
        <dd>{technicalDebt.rating}%</dd>
        <dt>Flags</dt>
        <dd>
          {health.activeCount} healthy, {health.staleCount} stale, {health.potentiallyStaleCount} potentially
          stale
        </dd>
      </dl>
      <DataTable caption={<caption>Stale flags</caption>} columns={["Flag", "Type", "Why"]}>
        {stale.length === 0 && <WideRow columns={3}>No stale or potentially stale flag.</WideRow>}
        {stale.map((flag) => (
          <tr key={flag.id}>
            <th scope="row">
              <Link
                to={`/projects/${encodeURIComponent(project.databaseId)}/flags/${encodeURIComponent(flag.name)}`}
              >
                {flag.name}
              </Link>
            </th>
            <td>{flag.type}</td>
            <td>{flag.stale ? "marked stale" : "older than its type's expected lifetime"}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}

function LeadTime({ data }: { data: Data }) {
  const { leadTime } = data.projectInsights;
  return (
    <section aria-labelledby="insights-lead-time">
      <h2 id="insights-lead-time">Lead time to production</h2>
      <p>
        {leadTime.projectAverage === null
          ? "No flag of this project has reached a production environment yet."
          : `On average ${days(leadTime.projectAverage)} from creation to first enabled in production.`}
      </p>
      {leadTime.features.length > 0 && (
        <DataTable columns={["Flag", "Time to production"]}>
          {leadTime.features.map((flag) => (
            <tr key={flag.name}>
              <th scope="row">{flag.name}</th>
              <td>{days(flag.timeToProduction)}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}

function FlagTypes({ data }: { data: Data }) {
  const counts = data.projectInsights.featureTypeCounts;
  return (
    <section aria-labelledby="insights-types">
      <h2 id="insights-types">Flag types</h2>
      <DataTable columns={["Type", "Active flags"]}>
        {counts.length === 0 && <WideRow columns={2}>No active flags.</WideRow>}
        {counts.map((c) => (
          <tr key={c.type}>
            <th scope="row">{c.type}</th>
            <td>{c.count}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}

function Activity({ data }: { data: Data }) {
  const { stats, members } = data.projectInsights;
  const rows: [string, number, number | null][] = [
    ["Flags created", stats.createdCurrentWindow, stats.createdPastWindow],
    ["Flags archived", stats.archivedCurrentWindow, stats.archivedPastWindow],
    ["Events", stats.projectActivityCurrentWindow, stats.projectActivityPastWindow],
    ["Members added", stats.projectMembersAddedCurrentWindow, null],
  ];
  return (
    <section aria-labelledby="insights-activity">
      <h2 id="insights-activity">Activity</h2>
      <p>
        {members.currentMembers} member(s), {members.change} added in the last 30 days. Mean time to
        production of the flags created in the last 30 days: {days(stats.avgTimeToProdCurrentWindow)}.
      </p>
      <DataTable columns={["", "Last 30 days", "The 30 days before"]}>
        {rows.map(([label, current, past]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td>{current}</td>
            <td>{past ?? "not kept"}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}
