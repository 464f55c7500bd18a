import { useQuery } from "urql";
import { Pending } from "../../components/layout.tsx";
import { graphql } from "../../lib/graphql.ts";
import { useFlag } from "./context.ts";

/** What SDKs reported about the flag in the last day, per environment and hour. */
const FlagUsageQuery = graphql(`
  query FlagUsage($project: String!, $name: String!) {
    projectFeature(project: $project, name: $name) { id environments { id name lastSeenAt } }
    featureMetrics(name: $name, hoursBack: 24) { environment appName hour yes no }
  }
`);

type Bucket = { hour: string; yes: number; no: number };

const HOURS = 24;

/**
 * SDK usage (issue 40.4): per environment, when an SDK last evaluated the flag, its yes/no
 * counts of the last 24 hours, the applications that reported, and a bar per hour (yes above
 * no). Read again when the page is opened; counts arrive as SDKs send them (every minute or so).
 */
export function FlagUsage() {
  const { project, name } = useFlag();
  const [result] = useQuery({
    query: FlagUsageQuery,
    variables: { project, name },
    requestPolicy: "cache-and-network",
  });
  const environments = result.data?.projectFeature.environments ?? [];
  const metrics = result.data?.featureMetrics ?? [];
  return (
    <section className="card" aria-labelledby="usage-heading">
      <h2 id="usage-heading">Usage</h2>
      <Pending fetching={result.fetching && !result.data} error={result.error} />
      {result.data && (
        <table className="usage">
          <caption className="hint">Evaluations reported by SDKs in the last 24 hours</caption>
          <thead>
            <tr>
              <th scope="col">Environment</th>
              <th scope="col">Last seen</th>
              <th scope="col">Yes</th>
              <th scope="col">No</th>
              <th scope="col">Applications</th>
              <th scope="col">Per hour</th>
            </tr>
          </thead>
          <tbody>
            {environments.map((environment) => {
              const rows = metrics.filter((m) => m.environment === environment.name);
              const yes = rows.reduce((sum, m) => sum + m.yes, 0);
              const no = rows.reduce((sum, m) => sum + m.no, 0);
              const apps = [...new Set(rows.map((m) => m.appName))].sort();
              return (
                <tr key={environment.id}>
                  <th scope="row">{environment.name}</th>
                  <td>
                    {environment.lastSeenAt ? new Date(environment.lastSeenAt).toLocaleString() : "never"}
                  </td>
                  <td>{yes}</td>
                  <td>{no}</td>
                  <td>{apps.length ? apps.join(", ") : "—"}</td>
                  <td>
                    <HourlyBars environment={environment.name} buckets={byHour(rows)} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The last 24 hours, oldest first, summed over applications (hours without reports: 0). */
function byHour(rows: Bucket[]): Bucket[] {
  const now = new Date();
  now.setUTCMinutes(0, 0, 0);
  const sums = new Map<number, Bucket>();
  for (const row of rows) {
    const at = new Date(row.hour).getTime();
    const bucket = sums.get(at) ?? { hour: row.hour, yes: 0, no: 0 };
    bucket.yes += row.yes;
    bucket.no += row.no;
    sums.set(at, bucket);
  }
  return Array.from({ length: HOURS }, (_, i) => {
    const at = now.getTime() - (HOURS - 1 - i) * 3_600_000;
    return sums.get(at) ?? { hour: new Date(at).toISOString(), yes: 0, no: 0 };
  });
}

/** A small chart: one bar per hour, yes (green) stacked on no (grey), scaled to the busiest hour. */
function HourlyBars(props: { environment: string; buckets: Bucket[] }) {
  const max = Math.max(1, ...props.buckets.map((b) => b.yes + b.no));
  const width = 4;
  const height = 28;
  return (
    <svg
      className="usage-bars"
      width={props.buckets.length * (width + 1)}
      height={height}
      role="img"
      aria-label={`Yes and no per hour in ${props.environment}`}
    >
      {props.buckets.map((b, i) => {
        const yes = (b.yes / max) * height;
        const no = (b.no / max) * height;
        return (
          <g key={b.hour}>
            <title>{`${new Date(b.hour).toLocaleString()}: ${b.yes} yes, ${b.no} no`}</title>
            <rect x={i * (width + 1)} y={height - yes - no} width={width} height={no} className="no" />
            <rect x={i * (width + 1)} y={height - yes} width={width} height={yes} className="yes" />
          </g>
        );
      })}
    </svg>
  );
}
