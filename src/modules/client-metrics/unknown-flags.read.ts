import type { Db } from "../../db/database.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { sqlOf } from "../../shared/sql.ts";
import { UNKNOWN_FLAG_HOURS } from "./unknown-flags.logic.ts";

const HOUR_MS = 3_600_000;
/** Unleash lists at most 1000 unknown flags. */
const MAX_UNKNOWN_FLAGS = 1000;

export type UnknownFlag = {
  name: string;
  lastSeenAt: Date;
  lastEventAt: Date | null;
  reports: { appName: string; environments: { environment: string; seenAt: Date }[] }[];
};

type Row = { name: string; appName: string; environment: string; seenAt: Date; lastEventAt: Date | null };

/**
 * Flag names SDKs reported in the last 24 hours that still match no flag, most recently seen
 * first (at most 1000), each with its reports per application and environment and the time of
 * the newest event about a flag of that name (a deleted one), if any.
 */
export async function unknownFlags(db: Db, now: Date): Promise<UnknownFlag[]> {
  const since = new Date(now.getTime() - UNKNOWN_FLAG_HOURS * HOUR_MS);
  const rows = await sqlOf(db).query<Row>(Prisma.sql`
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
