import { builder } from "../../builder.ts";
import { ValidationError } from "../../shared/errors.ts";
import { parseInput } from "../../shared/validation.ts";
import { labelSelectorsSchema } from "./impact-metrics.inputs.ts";
import { type ImpactRow, quantile } from "./impact-metrics.logic.ts";
import {
  flagImpactMetricRows,
  impactMetricRows,
  type KnownImpactMetric,
  knownImpactMetrics,
} from "./impact-metrics.read.ts";

const ImpactMetricRef = builder.objectRef<KnownImpactMetric>("ImpactMetric").implement({
  description: "A metric SDKs report through `impactMetrics` (counter, gauge or histogram), still kept.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "The metric's name, as the SDK defined it." }),
    type: t.exposeString("type", { description: "`counter`, `gauge` or `histogram`." }),
    environment: t.exposeString("environment", { description: "Environment of the reporting SDK token." }),
  }),
});

type Series = { appName: string; labels: unknown; type: string; points: ImpactRow[] };

/** The p-quantile of one stored minute of a histogram. */
const minuteQuantile = (r: ImpactRow, q: number) =>
  r.type !== "histogram"
    ? null
    : quantile(
        Object.entries(r.buckets ?? {})
          .map(([le, n]): [number, number] => [le === "+Inf" ? Number.POSITIVE_INFINITY : Number(le), n])
          .sort(([a], [b]) => a - b),
        q,
      );

const ImpactMetricPointRef = builder.objectRef<ImpactRow>("ImpactMetricPoint").implement({
  description: "One minute of one series.",
  fields: (t) => ({
    minute: t.field({ type: "DateTime", description: "Start of the minute.", resolve: (r) => r.minute }),
    value: t.exposeFloat("value", {
      description:
        "Counter: the increments in the minute; gauge: its last value; histogram: the observations' sum.",
    }),
    count: t.float({
      nullable: true,
      description: "Histogram: the observations in the minute (null for counters and gauges).",
      resolve: (r) => (r.type === "histogram" ? r.count : null),
    }),
    p50: t.float({
      nullable: true,
      description: "Histogram: median (bucket interpolation).",
      resolve: (r) => minuteQuantile(r, 0.5),
    }),
    p95: t.float({
      nullable: true,
      description: "Histogram: 95th percentile.",
      resolve: (r) => minuteQuantile(r, 0.95),
    }),
    p99: t.float({
      nullable: true,
      description: "Histogram: 99th percentile.",
      resolve: (r) => minuteQuantile(r, 0.99),
    }),
  }),
});

const ImpactMetricSeriesRef = builder.objectRef<Series>("ImpactMetricSeries").implement({
  description: "One application's minutes of a metric for one label set.",
  fields: (t) => ({
    appName: t.exposeString("appName", { description: "The reporting application." }),
    type: t.exposeString("type", { description: "`counter`, `gauge` or `histogram`." }),
    labels: t.field({
      type: "JSON",
      description:
        "The sample's labels besides appName and environment (unleash-client: `{<flag>: enabled|disabled|<variant>}`).",
      resolve: (s) => s.labels,
    }),
    points: t.field({
      type: [ImpactMetricPointRef],
      description: "Minutes, oldest first.",
      resolve: (s) => s.points,
    }),
  }),
});

builder.queryField("impactMetrics", (t) =>
  t.field({
    type: [ImpactMetricRef],
    description: "The impact metrics SDKs reported that are still kept, by name (at most 1,000).",
    authScopes: { authenticated: true },
    args: {
      environment: t.arg.string({ description: "Only those reported with this environment's tokens." }),
    },
    resolve: (_root, args, ctx) => knownImpactMetrics(ctx.db, args.environment),
  }),
);

builder.queryField("impactMetricSeries", (t) =>
  t.field({
    type: [ImpactMetricSeriesRef],
    description:
      "An impact metric over a time range, per minute: one series per application and label set (at most 10,000 minutes in all).",
    authScopes: { authenticated: true },
    args: {
      name: t.arg.string({ required: true, description: "The metric's name." }),
      environment: t.arg.string({ required: true, description: "Environment of the reporting SDK tokens." }),
      from: t.arg({ type: "DateTime", required: true, description: "Start (inclusive)." }),
      to: t.arg({ type: "DateTime", required: true, description: "End (exclusive)." }),
      labels: t.arg({
        type: "JSON",
        description:
          'Label selectors: `{"label": ["value", ...]}`; a series matches when each label has one of its values.',
      }),
    },
    resolve: async (_root, args, ctx) => {
      if (args.from.getTime() >= args.to.getTime()) throw new ValidationError("`from` must be before `to`.");
      const labels = parseInput(labelSelectorsSchema, args.labels ?? {});
      return seriesOf(await impactMetricRows(ctx.db, { ...args, labels }));
    },
  }),
);

/** The series of `rows` (one per application and label set), in the rows' order. */
function seriesOf(rows: ImpactRow[]): Series[] {
  const series = new Map<string, Series>();
  for (const row of rows) {
    const key = `${row.appName}\u0000${row.labelsKey}`;
    const s = series.get(key) ?? { appName: row.appName, labels: row.labels, type: row.type, points: [] };
    series.set(key, s);
    s.points.push(row);
  }
  return [...series.values()];
}

type FlagImpactMetric = { name: string; type: string; series: Series[] };

const FlagImpactMetricRef = builder.objectRef<FlagImpactMetric>("FlagImpactMetric").implement({
  description: "An impact metric whose samples name a flag, with one series per label set.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "The metric's name." }),
    type: t.exposeString("type", { description: "`counter`, `gauge` or `histogram`." }),
    series: t.field({
      type: [ImpactMetricSeriesRef],
      description: "Its series; each one's labels hold the flag's value (enabled, disabled or a variant).",
      resolve: (m) => m.series,
    }),
  }),
});

builder.queryField("featureImpactMetrics", (t) =>
  t.field({
    type: [FlagImpactMetricRef],
    description:
      "The impact metrics SDKs reported with the flag in their samples' context, in one environment over a time range, per minute (at most 10,000 minutes in all): how the flag's on, off and variant populations compare.",
    authScopes: { authenticated: true },
    args: {
      feature: t.arg.string({ required: true, description: "Flag name (a label of the samples)." }),
      environment: t.arg.string({ required: true, description: "Environment of the reporting SDK tokens." }),
      from: t.arg({ type: "DateTime", required: true, description: "Start (inclusive)." }),
      to: t.arg({ type: "DateTime", required: true, description: "End (exclusive)." }),
    },
    resolve: async (_root, args, ctx) => {
      if (args.from.getTime() >= args.to.getTime()) throw new ValidationError("`from` must be before `to`.");
      const rows = await flagImpactMetricRows(ctx.db, args);
      const metrics = new Map<string, ImpactRow[]>();
      for (const row of rows) metrics.set(row.name, [...(metrics.get(row.name) ?? []), row]);
      return [...metrics].map(([name, metricRows]) => ({
        name,
        type: metricRows[0]?.type ?? "counter",
        series: seriesOf(metricRows),
      }));
    },
  }),
);
