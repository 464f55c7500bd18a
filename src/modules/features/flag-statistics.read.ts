import DataLoader from "dataloader";
import type { Db } from "../../db/database.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { sqlOf } from "../../shared/sql.ts";
import { textArray } from "../../shared/text-array.ts";

// Counts of flags that reports show (project status and insights, instance statistics).

type Range = { gte: Date; lt?: Date };

/** A project's active flags: all, stale, and potentially stale (not stale). */
export type FlagStalenessCounts = { total: number; stale: number; potentiallyStale: number };

const NO_FLAGS: FlagStalenessCounts = { total: 0, stale: 0, potentiallyStale: 0 };

/** The staleness counts of each of `projectIds`, in one grouped statement. */
async function flagStalenessCountsOf(db: Db, projectIds: readonly string[]): Promise<FlagStalenessCounts[]> {
  const rows = await sqlOf(db).query<FlagStalenessCounts & { projectId: string }>`
    SELECT "projectId", count(*)::int AS total,
           (count(*) FILTER (WHERE stale))::int AS stale,
           (count(*) FILTER (WHERE NOT stale AND "potentiallyStale"))::int AS "potentiallyStale"
      FROM "Feature"
     WHERE "archivedAt" IS NULL AND "projectId" = ANY(${textArray(projectIds)})
     GROUP BY "projectId"`;
  const counts = new Map(rows.map(({ projectId, ...c }) => [projectId, c]));
  return projectIds.map((id) => counts.get(id) ?? NO_FLAGS);
}

/** The project's active flags: all, stale, and potentially stale (not stale). */
export async function flagStalenessCounts(db: Db, projectId: string): Promise<FlagStalenessCounts> {
  const [counts] = await flagStalenessCountsOf(db, [projectId]);
  return counts ?? NO_FLAGS;
}

/**
 * The request's loader of each project's staleness counts: the projects of a list share one
 * statement (three `relationCount`s of one relation with different filters read the projects
 * three times: Prisma's `_count` holds one per relation).
 */
export function flagStalenessCountsLoader(db: Db) {
  return new DataLoader<string, FlagStalenessCounts>((ids) => flagStalenessCountsOf(db, ids));
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
