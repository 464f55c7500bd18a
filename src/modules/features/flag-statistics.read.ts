import type { Db } from "../../db/database.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { sqlOf } from "../../shared/sql.ts";

// Counts of flags that reports show (project status and insights, instance statistics).

type Range = { gte: Date; lt?: Date };

/** The project's active flags: all, stale, and potentially stale (not stale). */
export async function flagStalenessCounts(db: Db, projectId: string) {
  const [total, stale, potentiallyStale] = await Promise.all([
    db.feature.count({ where: { projectId, archivedAt: null } }),
    db.feature.count({ where: { projectId, archivedAt: null, stale: true } }),
    db.feature.count({ where: { projectId, archivedAt: null, stale: false, potentiallyStale: true } }),
  ]);
  return { total, stale, potentiallyStale };
}

/** The project's active flags per lifecycle stage. */
export function flagsPerLifecycleStage(db: Db, projectId: string) {
  return db.feature.groupBy({
    by: ["lifecycleStage"],
    where: { projectId, archivedAt: null },
    _count: { _all: true },
  });
}

/** The project's active flags per flag type. */
export function flagsPerType(db: Db, projectId: string) {
  return db.feature.groupBy({ by: ["type"], where: { projectId, archivedAt: null }, _count: { _all: true } });
}

/** Per lifecycle stage: the mean days the project's flags spent in it before entering the next. */
export function lifecycleStageDurations(db: Db, projectId: string) {
  return sqlOf(db).query<{ stage: string; days: number }>(Prisma.sql`
    SELECT stage, avg(EXTRACT(EPOCH FROM (next - "createdAt")) / 86400)::float8 AS days FROM (
      SELECT l.stage, l."createdAt",
        lead(l."createdAt") OVER (PARTITION BY l."featureName" ORDER BY l."createdAt") AS next
      FROM "FeatureLifecycle" l JOIN "Feature" f ON f.name = l."featureName"
      WHERE f."projectId" = ${projectId}) s
    WHERE next IS NOT NULL GROUP BY stage`);
}

/** How many flags of the project are archived (archived in `range` when given). */
export function archivedFlagCount(db: Db, projectId: string, range?: Range) {
  return db.feature.count({ where: { projectId, archivedAt: range ?? { not: null } } });
}

/** How many flags of the project were created in `range`. */
export function createdFlagCount(db: Db, projectId: string, range: Range) {
  return db.feature.count({ where: { projectId, createdAt: range } });
}

/** How many flags are not archived, all projects. */
export function activeFlagCountEverywhere(db: Db) {
  return db.feature.count({ where: { archivedAt: null } });
}
