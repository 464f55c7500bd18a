import { z } from "zod";

/**
 * The `impactMetrics` of `POST /api/client/metrics` (unleash-client 6.12 `impact-metrics/`,
 * Unleash's `impactMetricsSchema`): counters and gauges as `{labels, value}` samples, histograms
 * as `{labels, count, sum, buckets: [{le, count}]}` with cumulative bucket counts. Counters and
 * histograms are what happened since the SDK's last report; a gauge is its last value. Checked
 * apart from the rest of the body (payloads.inputs.ts), so each schema stays small.
 */

const MAX_METRICS = 100;
const MAX_SAMPLES = 1_000;
const MAX_LABELS = 16;
const MAX_BUCKETS = 64;
const TEXT_MAX = 255;

export const impactMetricName = z.string().min(1).max(TEXT_MAX);
const finite = z.number().refine(Number.isFinite, "must be a finite number");
const nonNegative = finite.refine((n) => n >= 0, "must not be negative");
const labels = z
  .record(z.string().min(1).max(TEXT_MAX), z.union([z.string().max(TEXT_MAX), finite]).transform(String))
  .refine((l) => Object.keys(l).length <= MAX_LABELS, `at most ${MAX_LABELS} labels per sample`)
  .nullish()
  .transform((l) => l ?? {});

const numericSample = z.looseObject({ labels, value: finite });
const bucketSample = z.looseObject({
  labels,
  count: nonNegative,
  sum: finite,
  buckets: z
    .array(z.looseObject({ le: z.union([finite, z.literal("+Inf")]), count: nonNegative }))
    .max(MAX_BUCKETS),
});

const common = { name: impactMetricName, help: z.string().max(10_000).nullish() };
const impactMetric = z.discriminatedUnion("type", [
  z.looseObject({
    ...common,
    type: z.enum(["counter", "gauge"]),
    samples: z.array(numericSample).max(MAX_SAMPLES),
  }),
  z.looseObject({ ...common, type: z.literal("histogram"), samples: z.array(bucketSample).max(MAX_SAMPLES) }),
]);

/** The part of a metrics body this schema reads; the rest is payloads.inputs.ts's. */
export const impactMetricsBody = z.looseObject({
  impactMetrics: z.array(impactMetric).max(MAX_METRICS).nullish(),
});

export type ImpactMetric = z.output<typeof impactMetric>;

/** Label selectors (`{"label": ["value", ...]}`): which series of a metric are read. */
export const labelSelectorsSchema = z
  .record(z.string().min(1).max(TEXT_MAX), z.array(z.string().max(TEXT_MAX)).min(1).max(100))
  .refine((l) => Object.keys(l).length <= MAX_LABELS, `at most ${MAX_LABELS} label selectors`);
