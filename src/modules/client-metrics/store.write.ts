import type { AppBase } from "../../context.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { SYSTEM_ACTOR } from "../../shared/actor.ts";
import { sqlOf } from "../../shared/sql.ts";
import { runWrite, sqlStateOf, type Write } from "../../shared/write.ts";
import { MAX_COUNT } from "../features/evaluation-metrics.logic.ts";
import { recordEvaluationMetricsBatch } from "../features/evaluation-metrics.write.ts";
import type { AppFlagCounts, InstanceSeen, MetricsBatch } from "./batch.logic.ts";
import { recordUnknownFlags } from "./unknown-flags.write.ts";

const iso = (d: Date) => d.toISOString();
const byKey =
  <T>(key: (row: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
const countsKey = (r: AppFlagCounts) =>
  `${r.featureName}\u0000${r.environment}\u0000${r.appName}\u0000${iso(r.at)}`;

/**
 * Writes a batch in one transaction and a fixed number of statements (whatever its size):
 * the flags' hourly counts, `lastSeenAt` and lifecycle (features/evaluation-metrics.write.ts), the per
 * application and per variant counts, the application registry, and the names of unknown
 * flags. Rows are sorted so concurrent batches (other nodes) lock in the same order; a
 * deadlock is retried by runWrite.
 */
export async function storeBatch(deps: AppBase, batch: MetricsBatch): Promise<void> {
  await runWrite(
    { ...deps, principal: null },
    async (w) => {
      await touchApplications(w, [...batch.instances.values()]);
      const counts = [...batch.counts.values()];
      const { accepted } = await recordEvaluationMetricsBatch(w, counts);
      const kept = new Set(accepted);
      await recordUnknownFlags(
        w,
        counts.filter((c) => !kept.has(c)),
        deps.config.metrics.maxUnknownFlags,
      );
      // Two tokens with different scopes may report the same row: sum them before the upsert.
      const rows = mergeRows(accepted).sort(byKey(countsKey));
      await addApplicationCounts(w, rows);
      await addVariantCounts(w, rows);
    },
    { actor: SYSTEM_ACTOR },
  );
}

/** Rows of a batch that a failure other than their own data left unwritten, for a later try. */
export class UnwrittenRows extends Error {
  constructor(
    readonly rows: MetricsBatch,
    override readonly cause: unknown,
  ) {
    super(`SDK metrics not written: ${String(cause)}`);
  }
}

/**
 * Failures of the data itself (SQLSTATE classes 22 data exception, 23 integrity, 54 program
 * limit): writing the same rows again fails again, so they are set apart instead of retried.
 */
const DATA_ERROR_CLASSES = ["22", "23", "54"];
const isDataError = (error: unknown) => DATA_ERROR_CLASSES.includes(sqlStateOf(error)?.slice(0, 2) ?? "");

/**
 * Writes a batch so that one bad report never costs another: a batch that fails on its data is
 * split in halves, written apart, until the rows at fault are alone; those are dropped and
 * logged. Any other failure (the database unreachable, a deadlock past runWrite's retries)
 * rejects with UnwrittenRows holding exactly the rows not written yet.
 */
export async function storeBatchSeparating(deps: AppBase, batch: MetricsBatch): Promise<void> {
  try {
    await storeBatch(deps, batch);
  } catch (error) {
    if (!isDataError(error)) throw new UnwrittenRows(batch, error);
    if (batch.size <= 1) {
      deps.logger.error("SDK metrics row dropped: the database refuses its data", {
        row: describeRows(batch),
        error: String(error),
      });
      return;
    }
    let unwritten: UnwrittenRows | null = null;
    for (const half of batch.split()) {
      if (unwritten) {
        unwritten.rows.merge(half);
        continue;
      }
      try {
        await storeBatchSeparating(deps, half);
      } catch (stopped) {
        unwritten = stopped instanceof UnwrittenRows ? stopped : new UnwrittenRows(half, stopped);
      }
    }
    if (unwritten) throw unwritten;
  }
}

function describeRows(batch: MetricsBatch): string {
  const row = [...batch.counts.values()][0];
  if (row) return `flag ${JSON.stringify(row.featureName)} of ${JSON.stringify(row.appName)}`;
  const seen = [...batch.instances.values()][0];
  return seen ? `instance ${JSON.stringify(seen.instanceId)} of ${JSON.stringify(seen.appName)}` : "none";
}

function mergeRows(rows: AppFlagCounts[]): AppFlagCounts[] {
  const merged = new Map<string, AppFlagCounts>();
  for (const row of rows) {
    const key = countsKey(row);
    const known = merged.get(key);
    if (!known) {
      merged.set(key, { ...row, variants: new Map(row.variants) });
      continue;
    }
    known.yes = Math.min(known.yes + row.yes, MAX_COUNT);
    known.no = Math.min(known.no + row.no, MAX_COUNT);
    for (const [v, n] of row.variants)
      known.variants.set(v, Math.min((known.variants.get(v) ?? 0) + n, MAX_COUNT));
  }
  return [...merged.values()];
}

async function addApplicationCounts(w: Write, rows: AppFlagCounts[]) {
  if (rows.length === 0) return;
  await sqlOf(w.tx).execute(Prisma.sql`
    INSERT INTO "ClientMetricsHourly" AS m ("featureName", "environmentName", "appName", hour, yes, no)
    SELECT * FROM unnest(${rows.map((r) => r.featureName)}::text[], ${rows.map((r) => r.environment)}::text[],
      ${rows.map((r) => r.appName)}::text[], ${rows.map((r) => iso(r.at))}::timestamp(3)[],
      ${rows.map((r) => r.yes)}::int[], ${rows.map((r) => r.no)}::int[])
    ON CONFLICT ("featureName", "environmentName", "appName", hour) DO UPDATE SET
      yes = LEAST(m.yes::bigint + EXCLUDED.yes, ${MAX_COUNT})::int,
      no = LEAST(m.no::bigint + EXCLUDED.no, ${MAX_COUNT})::int`);
}

async function addVariantCounts(w: Write, rows: AppFlagCounts[]) {
  const variants = rows.flatMap((r) =>
    [...r.variants.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([variant, count]) => ({ r, variant, count })),
  );
  if (variants.length === 0) return;
  await sqlOf(w.tx).execute(Prisma.sql`
    INSERT INTO "ClientVariantMetricsHourly" AS m ("featureName", "environmentName", "appName", hour, variant, count)
    SELECT * FROM unnest(${variants.map((v) => v.r.featureName)}::text[], ${variants.map((v) => v.r.environment)}::text[],
      ${variants.map((v) => v.r.appName)}::text[], ${variants.map((v) => iso(v.r.at))}::timestamp(3)[],
      ${variants.map((v) => v.variant)}::text[], ${variants.map((v) => v.count)}::int[])
    ON CONFLICT ("featureName", "environmentName", "appName", hour, variant) DO UPDATE SET
      count = LEAST(m.count::bigint + EXCLUDED.count, ${MAX_COUNT})::int`);
}

/**
 * Applications and their instances: created on first sight, `lastSeenAt` moved forward, and
 * the SDK details of a register call kept (a metrics call carries none, so it keeps them).
 */
async function touchApplications(w: Write, instances: InstanceSeen[]) {
  if (instances.length === 0) return;
  const apps = new Map<string, Date>();
  for (const i of instances) {
    const seen = apps.get(i.appName);
    if (!seen || seen < i.seenAt) apps.set(i.appName, i.seenAt);
  }
  const appRows = [...apps.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  await sqlOf(w.tx).execute(Prisma.sql`
    INSERT INTO "ClientApplication" AS a ("appName", "lastSeenAt", "createdAt")
    SELECT t.name, t.seen, t.seen FROM unnest(${appRows.map(([a]) => a)}::text[],
      ${appRows.map(([, s]) => iso(s))}::timestamp(3)[]) AS t(name, seen)
    ON CONFLICT ("appName") DO UPDATE SET "lastSeenAt" = GREATEST(a."lastSeenAt", EXCLUDED."lastSeenAt")`);
  const sorted = instances.sort(byKey((i) => `${i.appName}\u0000${i.instanceId}\u0000${i.environment}`));
  const registered = (i: InstanceSeen) => Array.isArray(i.strategies);
  await upsertInstances(w, sorted.filter(registered), true);
  await upsertInstances(
    w,
    sorted.filter((i) => !registered(i)),
    false,
  );
}

/** `withStrategies`: the rows carry the SDK's strategy list (a register call), else it is kept. */
async function upsertInstances(w: Write, rows: InstanceSeen[], withStrategies: boolean) {
  if (rows.length === 0) return;
  const col = <T>(pick: (i: InstanceSeen) => T) => rows.map(pick);
  const strategies = withStrategies ? Prisma.sql`EXCLUDED.strategies` : Prisma.sql`c.strategies`;
  await sqlOf(w.tx).execute(Prisma.sql`
    INSERT INTO "ClientInstance" AS c ("appName", "instanceId", environment, "sdkType", "sdkVersion",
      "platformName", "platformVersion", strategies, "startedAt", interval, "lastSeenAt", "createdAt")
    SELECT t.app, t.instance, t.env, t.kind, t.version, t.platform, t.platform_version,
      ARRAY(SELECT jsonb_array_elements_text(t.strategies::jsonb)), t.started, t.interval, t.seen, t.seen
    FROM unnest(${col((i) => i.appName)}::text[], ${col((i) => i.instanceId)}::text[],
      ${col((i) => i.environment)}::text[], ${col((i) => i.sdkType)}::text[],
      ${col((i) => i.sdkVersion ?? null)}::text[], ${col((i) => i.platformName ?? null)}::text[],
      ${col((i) => i.platformVersion ?? null)}::text[], ${col((i) => JSON.stringify(i.strategies ?? []))}::text[],
      ${col((i) => (i.startedAt ? iso(i.startedAt) : null))}::timestamp(3)[],
      ${col((i) => (i.interval === undefined || i.interval === null ? null : Math.round(i.interval)))}::int[],
      ${col((i) => iso(i.seenAt))}::timestamp(3)[])
      AS t(app, instance, env, kind, version, platform, platform_version, strategies, started, interval, seen)
    ON CONFLICT ("appName", "instanceId", environment) DO UPDATE SET
      "sdkType" = EXCLUDED."sdkType",
      "sdkVersion" = COALESCE(EXCLUDED."sdkVersion", c."sdkVersion"),
      "platformName" = COALESCE(EXCLUDED."platformName", c."platformName"),
      "platformVersion" = COALESCE(EXCLUDED."platformVersion", c."platformVersion"),
      strategies = ${strategies},
      "startedAt" = COALESCE(EXCLUDED."startedAt", c."startedAt"),
      interval = COALESCE(EXCLUDED.interval, c.interval),
      "lastSeenAt" = GREATEST(c."lastSeenAt", EXCLUDED."lastSeenAt")`);
}
