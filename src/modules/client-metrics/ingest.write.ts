import type { AppScope } from "../../context.ts";
import { DomainError, ValidationError } from "../../shared/errors.ts";
import { parseInput } from "../../shared/validation.ts";
import { hourOf } from "../features/evaluation-metrics.logic.ts";
import type { Report, SdkType } from "./batch.logic.ts";
import { impactMetricsBody } from "./impact-metrics.inputs.ts";
import { impactRowsOf } from "./impact-metrics.logic.ts";
import {
  bulkMetricsBody,
  flagCountsByName,
  type InstanceFields,
  metricsBody,
  registerBody,
} from "./payloads.inputs.ts";

/**
 * The SDK endpoints' work, one function per endpoint, for callers that already checked the
 * SDK token (client token on /api/client, frontend token on /api/frontend). A malformed body
 * throws a ValidationError before anything is buffered, so nothing of it is stored.
 */

const DEFAULT_INSTANCE = "default";
const DEFAULT_ENVIRONMENT = "default";

/** What the caller's SDK token covers: one environment (or `*`) and its projects (`*` = all). */
export type ReportScope = { environment: string; projects: readonly string[] };

/**
 * The counts belong to the token's environment (the body's `environment` is the SDK's own
 * label); only a token valid for every environment falls back to the body's.
 */
function environmentOf(scope: ReportScope, reported: string | null | undefined): string {
  if (scope.environment !== "*") return scope.environment;
  return reported || DEFAULT_ENVIRONMENT;
}

/** `POST /api/client/metrics`, `POST /api/frontend/client/metrics`: one SDK bucket. */
export async function receiveClientMetrics(
  deps: AppScope,
  scope: ReportScope,
  body: unknown,
  sdkType: SdkType,
): Promise<void> {
  const report = parseInput(metricsBody(deps.config.metrics.maxFlags), body);
  // Impact metrics are kept from server-side SDKs only (a frontend token ships in every browser).
  const impact = sdkType === "backend" ? parseInput(impactMetricsBody, body).impactMetrics : null;
  const now = deps.now();
  const bucket = report.bucket;
  const admitted = await deps.services.metricsRoom.admit({
    projects: scope.projects,
    instance: instanceOf(scope, report, sdkType, now),
    // The hour is the bucket's start as the SDK saw it, unless its clock runs ahead of ours.
    bucket: bucket
      ? { at: new Date(Math.min(bucket.start.getTime(), now.getTime())), toggles: bucket.toggles }
      : undefined,
  });
  if (!admitted) return;
  // Refused here, the report leaves nothing stored; the room may count its names until it
  // reads the database again (a minute at most).
  const toggles = admitted.bucket?.toggles;
  await deps.services.metricsIngestor.add({
    ...admitted,
    bucket: admitted.bucket && {
      ...admitted.bucket,
      toggles: parseInput(flagCountsByName, toggles, ["bucket", "toggles"]),
    },
  });
  // Last, once the whole body passed: a refused report keeps none of its impact metrics either.
  if (impact?.length) {
    const source = {
      appName: report.appName,
      environment: environmentOf(scope, report.environment),
      at: now,
    };
    await deps.services.impactMetrics.add(impactRowsOf(impact, source));
  }
}

/** `POST /api/client/register`, `POST /api/frontend/client/register`: an SDK instance starts. */
export async function registerClient(
  deps: AppScope,
  scope: ReportScope,
  body: unknown,
  sdkType: SdkType,
): Promise<void> {
  const app = parseInput(registerBody, body);
  await buffer(deps, {
    projects: scope.projects,
    instance: {
      ...instanceOf(scope, app, sdkType, deps.now()),
      strategies: app.strategies ?? [],
      startedAt: app.started,
      interval: app.interval,
    },
  });
}

/**
 * `POST /api/client/metrics/bulk` (Unleash Edge): each application is registered as by
 * `registerClient` (its own `sdkType`, backend by default), and each metrics row is counted as
 * an SDK bucket of its application, environment and hour, as Unleash does: rows for an
 * environment the token does not cover are dropped. No instance is recorded for the metrics
 * rows themselves (Edge is not an SDK instance of those applications).
 */
export async function receiveBulkMetrics(deps: AppScope, scope: ReportScope, body: unknown): Promise<void> {
  const bulk = parseInput(bulkMetricsBody, body);
  const now = deps.now();
  const reports: Report[] = bulk.applications.map((app) => ({
    projects: scope.projects,
    instance: {
      ...instanceOf(scope, app, app.sdkType ?? "backend", now),
      strategies: app.strategies ?? [],
      startedAt: app.started,
      interval: app.interval,
    },
  }));
  const buckets = new Map<string, Report & { bucket: NonNullable<Report["bucket"]> }>();
  for (const row of bulk.metrics) {
    if (scope.environment !== "*" && row.environment !== scope.environment) continue;
    const at = hourOf(new Date(Math.min((row.timestamp ?? now).getTime(), now.getTime())));
    const key = [row.appName, row.environment, at.getTime()].join("\u0000");
    let report = buckets.get(key);
    if (!report) {
      report = {
        projects: scope.projects,
        countsOnly: true,
        instance: {
          appName: row.appName,
          instanceId: DEFAULT_INSTANCE,
          environment: row.environment,
          sdkType: "backend",
          seenAt: now,
        },
        bucket: { at, toggles: {} },
      };
      buckets.set(key, report);
    }
    const toggles = report.bucket.toggles;
    const toggle = toggles[row.featureName] ?? { yes: 0, no: 0, variants: null };
    toggles[row.featureName] = toggle;
    toggle.yes += row.yes;
    toggle.no += row.no;
    for (const [variant, n] of Object.entries(row.variants ?? {})) {
      toggle.variants = { ...toggle.variants, [variant]: (toggle.variants?.[variant] ?? 0) + n };
    }
  }
  await Promise.all([...reports, ...buckets.values()].map((report) => buffer(deps, report)));
}

/** Buffers a report as far as the caps on applications and instances leave room for it. */
async function buffer(deps: Pick<AppScope, "services">, report: Report): Promise<void> {
  const admitted = await deps.services.metricsRoom.admit(report);
  if (admitted) await deps.services.metricsIngestor.add(admitted);
}

/** The sending instance as a register or metrics call describes it. */
function instanceOf(scope: ReportScope, body: InstanceFields, sdkType: SdkType, seenAt: Date) {
  return {
    appName: body.appName,
    instanceId: body.instanceId || DEFAULT_INSTANCE,
    environment: environmentOf(scope, body.environment),
    sdkType,
    seenAt,
    sdkVersion: body.sdkVersion,
    platformName: body.platformName,
    platformVersion: body.platformVersion,
  };
}

/**
 * The JSON body of a register or metrics call. The issue asks 400 for oversized metrics (the
 * SDKs treat 413 like any other error): a body over the size limit is a ValidationError here.
 */
export async function sdkReportBody(req: { body(): Promise<unknown> }): Promise<unknown> {
  try {
    return await req.body();
  } catch (error) {
    if (error instanceof DomainError && error.code === "PAYLOAD_TOO_LARGE")
      throw new ValidationError(error.message);
    throw error;
  }
}
