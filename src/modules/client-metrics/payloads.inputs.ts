import { z } from "zod";
import { MAX_COUNT } from "../features/evaluation-metrics.logic.ts";

/**
 * The bodies the official SDKs send (unleash-client `lib/metrics.js` getClientData /
 * createMetricsData, unleash-proxy-client's register and metrics), as zod schemas. Fields the
 * SDKs add that Vexil does not use (connectionId, yggdrasilVersion, ...) are let through
 * untouched; those it uses are checked, and one bad field refuses the whole body.
 * `impactMetrics` has its own schema (impact-metrics.inputs.ts).
 * A metrics report's counts are checked in a second step, `flagCountsByName`, only for the
 * flags the metrics room admits (D-35): a flood of made-up names from a public token costs a
 * look-up per name, not a validation of each.
 */

const NAME_MAX = 255;
const MAX_VARIANTS_PER_FLAG = 1000;
const MAX_STRATEGIES = 1000;

const name = z.string().min(1).max(NAME_MAX);
const optionalText = z.string().max(NAME_MAX).nullish();
const count = z.number().int().min(0).max(MAX_COUNT);

/** RFC 3339 text or a UNIX timestamp (seconds; values too large for seconds are milliseconds). */
const dateLike = z.union([
  z.iso.datetime({ offset: true }).transform((s) => new Date(s)),
  z
    .number()
    .nonnegative()
    .transform((n) => new Date(n < 1e11 ? n * 1000 : n))
    .refine((d) => !Number.isNaN(d.getTime()), "not a valid timestamp"),
]);

const flagCounts = z.looseObject({
  yes: count,
  no: count,
  variants: z
    .record(z.string().max(NAME_MAX), count)
    .nullish()
    .refine((v) => !v || Object.keys(v).length <= MAX_VARIANTS_PER_FLAG, {
      message: `at most ${MAX_VARIANTS_PER_FLAG} variants per flag`,
    }),
});

/** A metrics report's counts per flag name, before `flagCountsByName` checks them. */
const uncheckedToggles = z.custom<Record<string, unknown>>(
  (v) => typeof v === "object" && v !== null && !Array.isArray(v),
  "expected an object of counts per flag name",
);

/** The counts of the flags admitted from a metrics report's `bucket.toggles`. */
export const flagCountsByName = z.record(name, flagCounts);

/** What every register and metrics call says about the SDK instance that sends it. */
const instanceFields = {
  appName: name,
  instanceId: optionalText,
  environment: optionalText,
  sdkVersion: optionalText,
  platformName: optionalText,
  platformVersion: optionalText,
};

const metricsBodies = new Map<number, ReturnType<typeof buildMetricsBody>>();

/**
 * `POST /api/client/metrics` and `/api/frontend/client/metrics`, for a flag limit. Built once per
 * limit: zod compiles a schema on its first parse, which costs more than the parse itself.
 */
export function metricsBody(maxFlags: number) {
  let schema = metricsBodies.get(maxFlags);
  if (!schema) {
    schema = buildMetricsBody(maxFlags);
    metricsBodies.set(maxFlags, schema);
  }
  return schema;
}

function buildMetricsBody(maxFlags: number) {
  return z.looseObject({
    ...instanceFields,
    // Omitted or null when a report carries only impact metrics (impact-metrics.inputs.ts).
    bucket: z
      .looseObject({
        start: dateLike,
        stop: dateLike,
        toggles: uncheckedToggles.refine((t) => Object.keys(t).length <= maxFlags, {
          message: `at most ${maxFlags} flags per report`,
        }),
      })
      .nullish(),
  });
}

/** `POST /api/client/register` and `/api/frontend/client/register`. */
export const registerBody = z.looseObject({
  ...instanceFields,
  strategies: z.array(z.string().max(NAME_MAX)).max(MAX_STRATEGIES).nullish(),
  started: dateLike.nullish(),
  interval: z.number().nonnegative().max(MAX_COUNT).nullish(),
});

const MAX_BULK_APPLICATIONS = 10_000;
const MAX_BULK_METRICS = 100_000;

/**
 * `POST /api/client/metrics/bulk` (Unleash Edge): applications as register bodies (plus
 * `sdkType`, `connectVia`), and metrics as one row per flag, application, environment and hour.
 */
export const bulkMetricsBody = z.looseObject({
  applications: z
    .array(
      z.looseObject({
        ...instanceFields,
        environment: name,
        strategies: z.array(z.string().max(NAME_MAX)).max(MAX_STRATEGIES).nullish(),
        started: dateLike.nullish(),
        interval: z.number().nonnegative().max(MAX_COUNT).nullish(),
        sdkType: z.enum(["frontend", "backend"]).nullish(),
      }),
    )
    .max(MAX_BULK_APPLICATIONS),
  metrics: z
    .array(
      z.looseObject({
        featureName: name,
        appName: name,
        environment: name,
        timestamp: dateLike.nullish(),
        yes: count.default(0),
        no: count.default(0),
        variants: flagCounts.shape.variants,
      }),
    )
    .max(MAX_BULK_METRICS),
});

export type MetricsBody = z.output<ReturnType<typeof buildMetricsBody>>;
export type RegisterBody = z.output<typeof registerBody>;
export type InstanceFields = z.output<z.ZodObject<typeof instanceFields>>;
