import { useMemo } from "react";
import { useQuery } from "urql";
import type { SafeguardSeries } from "./release-queries.ts";

const MINUTES = 60;
const MINUTE_MS = 60_000;

/**
 * A safeguard's metric over the last hour: one bar per minute (summed over the series it
 * counts), the threshold as a line. Read again whenever the plan changes (`version`).
 */
export function SafeguardChart(props: {
  query: typeof SafeguardSeries;
  environment: string;
  metric: string;
  labels: unknown;
  threshold: number;
  version: number;
}) {
  const range = useMemo(() => {
    void props.version;
    const to = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
    return { from: new Date(to - MINUTES * MINUTE_MS).toISOString(), to: new Date(to).toISOString() };
  }, [props.version]);
  const [result] = useQuery({
    query: props.query,
    variables: { name: props.metric, environment: props.environment, labels: props.labels, ...range },
    requestPolicy: "cache-and-network",
  });
  const perMinute = new Map<number, number>();
  for (const series of result.data?.impactMetricSeries ?? []) {
    for (const p of series.points) {
      const at = new Date(p.minute).getTime();
      perMinute.set(at, (perMinute.get(at) ?? 0) + p.value);
    }
  }
  const start = new Date(range.from).getTime();
  const minutes = Array.from({ length: MINUTES }, (_, i) => {
    const at = start + i * MINUTE_MS;
    return { at, value: perMinute.get(at) ?? 0 };
  });
  const max = Math.max(props.threshold, 1, ...minutes.map((m) => m.value));
  const width = 4;
  const height = 32;
  const line = height - (props.threshold / max) * height;
  return (
    <svg
      className="usage-bars"
      width={MINUTES * (width + 1)}
      height={height}
      role="img"
      aria-label={`${props.metric} per minute in ${props.environment}, last hour`}
    >
      {minutes.map(({ at, value }, i) => (
        <rect
          key={at}
          x={i * (width + 1)}
          y={height - (value / max) * height}
          width={width}
          height={(value / max) * height}
          className={value > props.threshold ? "no" : "yes"}
        >
          <title>{`${new Date(at).toLocaleTimeString()}: ${value}`}</title>
        </rect>
      ))}
      <line
        x1={0}
        x2={MINUTES * (width + 1)}
        y1={line}
        y2={line}
        stroke="currentColor"
        strokeDasharray="3 2"
      />
    </svg>
  );
}
