import type { ImpactMetric } from "./impact-metrics.inputs.ts";

/**
 * Impact metrics as kept: one row per metric, environment, application, label set and minute
 * (D-35). Counters and histograms add up within the minute; a gauge keeps its last value.
 */
export type ImpactMetricType = "counter" | "gauge" | "histogram";
export type ImpactRow = {
  name: string;
  environment: string;
  appName: string;
  labelsKey: string;
  labels: Record<string, string>;
  minute: Date;
  type: ImpactMetricType;
  /** counter: increments; gauge: last value; histogram: sum of observations */
  value: number;
  /** histogram: observations */
  count: number;
  /** histogram: cumulative count per upper bound ("+Inf" included) */
  buckets: Record<string, number> | null;
};

/** The labels that are columns of their own: the SDK's application and environment. */
const COLUMN_LABELS = new Set(["appName", "environment"]);
const MINUTE_MS = 60_000;

export const minuteOf = (at: Date) => new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS);

/** A label set as one text, the same for the same labels in any order. */
export function labelsKeyOf(labels: Record<string, string>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1))));
}

export const rowKey = (r: Pick<ImpactRow, "name" | "environment" | "minute" | "appName" | "labelsKey">) =>
  [r.name, r.environment, r.minute.getTime(), r.appName, r.labelsKey].join("\u0000");

/** The rows one report brings, for its SDK's application and token environment, at `at`. */
export function impactRowsOf(
  metrics: ImpactMetric[],
  source: { appName: string; environment: string; at: Date },
): ImpactRow[] {
  const minute = minuteOf(source.at);
  const rows: ImpactRow[] = [];
  const baseOf = (name: string, sampleLabels: Record<string, string>) => {
    const labels = Object.fromEntries(Object.entries(sampleLabels).filter(([k]) => !COLUMN_LABELS.has(k)));
    return { name, ...source, minute, labels, labelsKey: labelsKeyOf(labels) };
  };
  for (const metric of metrics) {
    if (metric.type === "histogram") {
      for (const sample of metric.samples) {
        const buckets = Object.fromEntries(sample.buckets.map((b) => [String(b.le), b.count]));
        const base = baseOf(metric.name, sample.labels);
        rows.push({ ...base, type: "histogram", value: sample.sum, count: sample.count, buckets });
      }
    } else {
      for (const sample of metric.samples) {
        rows.push({
          ...baseOf(metric.name, sample.labels),
          type: metric.type,
          value: sample.value,
          count: 0,
          buckets: null,
        });
      }
    }
  }
  return rows;
}

/** Adds `row` into `into` (same key): sums, or the gauge's newer value. */
export function mergeRow(into: ImpactRow, row: ImpactRow): void {
  if (into.type !== row.type) {
    Object.assign(into, row); // the metric changed type: the newer definition wins
    return;
  }
  if (row.type === "gauge") {
    into.value = row.value;
    return;
  }
  into.value += row.value;
  into.count += row.count;
  if (row.buckets) {
    const merged = { ...into.buckets };
    for (const [le, n] of Object.entries(row.buckets)) merged[le] = (merged[le] ?? 0) + n;
    into.buckets = merged;
  }
}

/** How a safeguard reads a metric over its window (Unleash's `aggregationMode`). */
export const AGGREGATION_MODES = ["count", "sum", "avg", "rps", "p50", "p95", "p99"] as const;
export type AggregationMode = (typeof AGGREGATION_MODES)[number];

/** Whether `mode` means something for a metric of `type` (percentiles need a histogram). */
export function modeFits(type: ImpactMetricType, mode: AggregationMode): boolean {
  return !mode.startsWith("p") || type === "histogram";
}

type Measured = Pick<ImpactRow, "type" | "value" | "count" | "buckets">;

/**
 * One number for `rows` (the window's minutes of one metric, every matching series): counters
 * and histograms add up (`count`/`sum`; `rps` per second of the window), gauges average, and
 * percentiles interpolate within the merged histogram buckets. Null: no data in the window.
 */
export function aggregate(rows: Measured[], mode: AggregationMode, windowSeconds: number): number | null {
  if (rows.length === 0) return null;
  const type = rows[0]?.type;
  const values = rows.reduce((s, r) => s + r.value, 0);
  if (type === "histogram") {
    const count = rows.reduce((s, r) => s + r.count, 0);
    if (mode === "count") return count;
    if (mode === "sum") return values;
    if (mode === "avg") return count === 0 ? null : values / count;
    if (mode === "rps") return count / windowSeconds;
    return quantile(mergedBuckets(rows), Number(mode.slice(1)) / 100);
  }
  if (type === "gauge" && mode === "avg") return values / rows.length;
  if (mode === "rps") return values / windowSeconds;
  if (mode === "avg") return values / rows.length;
  return values;
}

function mergedBuckets(rows: Measured[]): [number, number][] {
  const merged = new Map<number, number>();
  for (const r of rows) {
    for (const [le, n] of Object.entries(r.buckets ?? {})) {
      const bound = le === "+Inf" ? Number.POSITIVE_INFINITY : Number(le);
      merged.set(bound, (merged.get(bound) ?? 0) + n);
    }
  }
  return [...merged.entries()].sort(([a], [b]) => a - b);
}

/** Prometheus's histogram_quantile: linear within the bucket holding the rank. */
export function quantile(buckets: [number, number][], q: number): number | null {
  const total = buckets.at(-1)?.[1] ?? 0;
  if (total === 0) return null;
  const rank = q * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const [bound, cumulative] of buckets) {
    if (cumulative >= rank) {
      if (bound === Number.POSITIVE_INFINITY) return lowerBound;
      const inBucket = cumulative - lowerCount;
      return inBucket === 0 ? bound : lowerBound + ((bound - lowerBound) * (rank - lowerCount)) / inBucket;
    }
    lowerBound = bound;
    lowerCount = cumulative;
  }
  return lowerBound;
}
