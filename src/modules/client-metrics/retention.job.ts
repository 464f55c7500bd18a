import type { Db, Tx } from "../../db/database.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { openTransaction } from "../../shared/direct-statements.ts";
import { tryJobLock } from "../../shared/job-lock.ts";
import { sqlOf } from "../../shared/sql.ts";
import { UNKNOWN_FLAG_HOURS } from "./unknown-flags.logic.ts";

/**
 * Retention of SDK telemetry, as Unleash keeps it (D-35): per-application hourly counts, impact
 * metrics and SDK instances for `retentionHours` (48) after their hour, minute or last report, unknown flags for
 * 24 hours, applications for 30 days after their last report. Once the applications reach
 * their cap, those no admin described and with no instance left go at once, so that room comes
 * back after a flood of made-up names.
 */
export type RetentionLimits = { retentionHours: number; maxApplications: number };
export type Pruned = {
  metrics: number;
  variantMetrics: number;
  impactMetrics: number;
  instances: number;
  applications: number;
  unknownFlags: number;
};

/** Any constant works: it names this job's lock among the database's advisory locks. */
const LOCK_KEY = 7_402_170;
const HOUR_MS = 3_600_000;
const APPLICATION_DAYS = 30;
/** Rows deleted per transaction, so that a long backlog never holds locks for long. */
const CHUNK = 5_000;

/**
 * One pass; with several nodes on one database, only the node holding the advisory lock
 * prunes (the others return null, as the pass finds nothing to do anyway).
 */
export async function pruneClientMetrics(db: Db, now: Date, limits: RetentionLimits): Promise<Pruned | null> {
  const kept = new Date(now.getTime() - limits.retentionHours * HOUR_MS);
  const pruned: Pruned = {
    metrics: 0,
    variantMetrics: 0,
    impactMetrics: 0,
    instances: 0,
    applications: 0,
    unknownFlags: 0,
  };
  const steps: [keyof Pruned, (tx: Tx) => Promise<number>][] = [
    ["metrics", (tx) => deleteChunk(tx, "ClientMetricsHourly", Prisma.sql`hour < ${kept}`)],
    ["variantMetrics", (tx) => deleteChunk(tx, "ClientVariantMetricsHourly", Prisma.sql`hour < ${kept}`)],
    ["impactMetrics", (tx) => deleteChunk(tx, "ImpactMetricMinute", Prisma.sql`minute < ${kept}`)],
    ["instances", (tx) => deleteChunk(tx, "ClientInstance", Prisma.sql`"lastSeenAt" < ${kept}`)],
    [
      "unknownFlags",
      (tx) =>
        deleteChunk(
          tx,
          "UnknownFlag",
          Prisma.sql`"seenAt" < ${new Date(now.getTime() - UNKNOWN_FLAG_HOURS * HOUR_MS)}`,
        ),
    ],
    [
      "applications",
      (tx) =>
        deleteChunk(
          tx,
          "ClientApplication",
          Prisma.sql`"lastSeenAt" < ${new Date(now.getTime() - APPLICATION_DAYS * 24 * HOUR_MS)}`,
        ),
    ],
    ["applications", (tx) => deleteForgottenApplications(tx, limits.maxApplications)],
  ];
  for (const [what, step] of steps) {
    for (;;) {
      const deleted = await locked(db, step);
      if (deleted === null) return null;
      pruned[what] += deleted;
      if (deleted < CHUNK) break;
    }
  }
  return pruned;
}

async function locked(db: Db, step: (tx: Tx) => Promise<number>): Promise<number | null> {
  return openTransaction(db, async (tx) => {
    return (await tryJobLock(tx, LOCK_KEY)) ? step(tx) : null;
  });
}

function deleteChunk(tx: Tx, table: string, where: Prisma.Sql): Promise<number> {
  return sqlOf(tx).execute(Prisma.sql`
    DELETE FROM ${Prisma.raw(`"${table}"`)} WHERE ctid = ANY(ARRAY(
      SELECT ctid FROM ${Prisma.raw(`"${table}"`)} WHERE ${where} LIMIT ${CHUNK}))`);
}

/**
 * At the cap: applications known only from SDK reports (no metadata an admin set) whose
 * instances were all pruned, oldest first.
 */
async function deleteForgottenApplications(tx: Tx, maxApplications: number): Promise<number> {
  const [row] = await sqlOf(tx).query<{ count: number }>(
    Prisma.sql`SELECT count(*)::int AS count FROM "ClientApplication"`,
  );
  if ((row?.count ?? 0) < maxApplications) return 0;
  return sqlOf(tx).execute(Prisma.sql`
    DELETE FROM "ClientApplication" WHERE ctid = ANY(ARRAY(
      SELECT a.ctid FROM "ClientApplication" a
      WHERE a.description IS NULL AND a.url IS NULL AND a.color IS NULL AND a.icon IS NULL
        AND cardinality(a.strategies) = 0
        AND NOT EXISTS (SELECT 1 FROM "ClientInstance" i WHERE i."appName" = a."appName")
      ORDER BY a."lastSeenAt" LIMIT ${CHUNK}))`);
}
