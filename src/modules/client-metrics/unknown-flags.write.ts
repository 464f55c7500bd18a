import type { Db } from "../../db/database.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import type { Write } from "../../shared/write.ts";
import type { AppFlagCounts } from "./batch.logic.ts";
import { UNKNOWN_FLAG_DAYS } from "./unknown-flags.logic.ts";

const DAY_MS = 86_400_000;
/** Unleash lists at most 1000 unknown flags. */
const MAX_UNKNOWN_FLAGS = 1000;

/**
 * Remembers the flag names in rejected metrics rows that no flag (active or archived) has, per
 * application and environment, with when they were last reported: two statements per batch
 * with such rows, none otherwise. Rows are sorted so concurrent batches lock in the same order.
 */
export async function recordUnknownFlags(w: Write, rejected: readonly AppFlagCounts[]): Promise<void> {
  if (rejected.length === 0) return;
  const names = [...new Set(rejected.map((r) => r.featureName))];
  const existing = await w.tx.feature.findMany({ where: { name: { in: names } }, select: { name: true } });
  const known = new Set(existing.map((f) => f.name));
  const latest = new Map<string, { name: string; appName: string; environment: string; seenAt: Date }>();
  for (const r of rejected) {
    if (known.has(r.featureName)) continue;
    const key = `${r.featureName}\u0000${r.appName}\u0000${r.environment}`;
    const row = latest.get(key);
    if (!row || row.seenAt < r.seenAt) {
      latest.set(key, {
        name: r.featureName,
        appName: r.appName,
        environment: r.environment,
        seenAt: r.seenAt,
      });
    }
  }
  const rows = [...latest.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
  if (rows.length === 0) return;
  await w.tx.$executeRaw(Prisma.sql`
    INSERT INTO "UnknownFlag" AS u (name, "appName", environment, "seenAt")
    SELECT * FROM unnest(${rows.map((r) => r.name)}::text[], ${rows.map((r) => r.appName)}::text[],
      ${rows.map((r) => r.environment)}::text[], ${rows.map((r) => r.seenAt)}::timestamp(3)[])
    ON CONFLICT (name, "appName", environment) DO UPDATE SET "seenAt" = GREATEST(u."seenAt", EXCLUDED."seenAt")`);
}

export type UnknownFlag = {
  name: string;
  lastSeenAt: Date;
  lastEventAt: Date | null;
  reports: { appName: string; environments: { environment: string; seenAt: Date }[] }[];
};

type Row = { name: string; appName: string; environment: string; seenAt: Date; lastEventAt: Date | null };

/**
 * Flag names SDKs reported in the last 7 days that still match no flag, most recently seen
 * first (at most 1000), each with its reports per application and environment and the time of
 * the newest event about a flag of that name (a deleted one), if any.
 */
export async function unknownFlags(db: Db, now: Date): Promise<UnknownFlag[]> {
  const since = new Date(now.getTime() - UNKNOWN_FLAG_DAYS * DAY_MS);
  const rows = await db.$queryRaw<Row[]>(Prisma.sql`
    WITH listed AS (
      SELECT u.name, max(u."seenAt") AS "lastSeenAt" FROM "UnknownFlag" u
      WHERE u."seenAt" >= ${since} AND NOT EXISTS (SELECT 1 FROM "Feature" f WHERE f.name = u.name)
      GROUP BY u.name ORDER BY "lastSeenAt" DESC, u.name LIMIT ${MAX_UNKNOWN_FLAGS})
    SELECT u.name, u."appName", u.environment, u."seenAt",
      (SELECT max(e."createdAt") FROM "Event" e WHERE e."featureName" = u.name) AS "lastEventAt"
    FROM listed l JOIN "UnknownFlag" u ON u.name = l.name AND u."seenAt" >= ${since}
    ORDER BY l."lastSeenAt" DESC, u.name, u."appName", u.environment`);
  const flags = new Map<string, UnknownFlag>();
  for (const r of rows) {
    const flag = flags.get(r.name) ?? {
      name: r.name,
      lastSeenAt: r.seenAt,
      lastEventAt: r.lastEventAt,
      reports: [],
    };
    if (r.seenAt > flag.lastSeenAt) flag.lastSeenAt = r.seenAt;
    let report = flag.reports.find((x) => x.appName === r.appName);
    if (!report) {
      report = { appName: r.appName, environments: [] };
      flag.reports.push(report);
    }
    report.environments.push({ environment: r.environment, seenAt: r.seenAt });
    flags.set(r.name, flag);
  }
  return [...flags.values()];
}
