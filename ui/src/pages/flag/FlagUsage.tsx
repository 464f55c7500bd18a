import { useState } from "react";
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

const FlagImpactQuery = graphql(`
  query FlagImpactMetrics($name: String!, $environment: String!, $from: DateTime!, $to: DateTime!) {
    featureImpactMetrics(feature: $name, environment: $environment, from: $from, to: $to) {
      name type series { appName labels points { minute value } }
    }
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
      {environments.map((environment) => (
        <ImpactMetrics key={environment.id} environment={environment.name} />
      ))}
    </section>
  );
}

const MINUTE_MS = 60_000;
const MINUTES = 60;

/**
 * The impact metrics SDKs reported with this flag in their samples' context (issue 41.1), last
 * hour: per metric, the flag's populations (enabled, disabled, a variant) side by side, each with
 * its total and a bar per minute. Nothing when no SDK reported any.
 */
function ImpactMetrics(props: { environment: string }) {
  const { name } = useFlag();
  const [range] = useState(() => {
    const to = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
    return { from: new Date(to - MINUTES * MINUTE_MS).toISOString(), to: new Date(to).toISOString() };
  });
  const [result] = useQuery({
    query: FlagImpactQuery,
    variables: { name, environment: props.environment, ...range },
    requestPolicy: "cache-and-network",
  });
  const metrics = result.data?.featureImpactMetrics ?? [];
  if (metrics.length === 0) return null;
  return (
    <table className="usage">
      <caption className="hint">
        Impact metrics in {props.environment}, last hour, by the flag's value
      </caption>
      <thead>
        <tr>
          <th scope="col">Metric</th>
          <th scope="col">Flag value</th>
          <th scope="col">Total</th>
          <th scope="col">Per minute</th>
        </tr>
      </thead>
      <tbody>
        {metrics.flatMap((metric) =>
          populations(metric.series, name, range.from).map(([value, minutes]) => (
            <tr key={`${metric.name}:${value}`}>
              <th scope="row">{metric.name}</th>
              <td>{value}</td>
              <td>{minutes.reduce((sum, m) => sum + m, 0)}</td>
              <td>
                <MinuteBars
                  label={`${metric.name} per minute in ${props.environment} (${value})`}
                  minutes={minutes}
                />
              </td>
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}

/** Per value of the flag's label: the metric per minute of the hour from `from`, summed over series. */
function populations(
  series: { labels: unknown; points: { minute: string; value: number }[] }[],
  flag: string,
  from: string,
): [string, number[]][] {
  const start = new Date(from).getTime();
  const byValue = new Map<string, number[]>();
  for (const s of series) {
    const value = String((s.labels as Record<string, unknown>)[flag] ?? "");
    const minutes = byValue.get(value) ?? Array.from({ length: MINUTES }, () => 0);
    byValue.set(value, minutes);
    for (const p of s.points) {
      const i = Math.floor((new Date(p.minute).getTime() - start) / MINUTE_MS);
      if (i >= 0 && i < MINUTES) minutes[i] = (minutes[i] ?? 0) + p.value;
    }
  }
  return [...byValue].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function MinuteBars(props: { label: string; minutes: number[] }) {
  const max = Math.max(1, ...props.minutes);
  const width = 3;
  const height = 24;
  const bars = props.minutes.map((value, minute) => ({ minute, value }));
  return (
    <svg
      className="usage-bars"
      width={props.minutes.length * (width + 1)}
      height={height}
      role="img"
      aria-label={props.label}
    >
      {bars.map((bar) => (
        <rect
          key={bar.minute}
          x={bar.minute * (width + 1)}
          y={height - (bar.value / max) * height}
          width={width}
          height={(bar.value / max) * height}
          className="yes"
        />
      ))}
    </svg>
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
