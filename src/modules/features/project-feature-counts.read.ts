import DataLoader from "dataloader";
import type { Db } from "../../db/database.ts";
import { sqlOf } from "../../shared/sql.ts";
import { textArray } from "../../shared/text-array.ts";

/** A project's active flags, and how many of them are stale or potentially stale. */
export type ProjectFeatureCounts = { active: number; stale: number; potentiallyStale: number };

const NO_FEATURES: ProjectFeatureCounts = { active: 0, stale: 0, potentiallyStale: 0 };

/**
 * The request's loader of each project's flag counts: one grouped statement for all three
 * counts of every project asked for. Three `relationCount`s of one relation with different
 * filters were three reads of the projects (Prisma's `_count` holds one per relation).
 */
export function projectFeatureCountsLoader(db: Db) {
  return new DataLoader<string, ProjectFeatureCounts>(async (ids) => {
    const rows = await sqlOf(db).query<ProjectFeatureCounts & { projectId: string }>`
      SELECT "projectId", count(*)::int AS active,
             (count(*) FILTER (WHERE stale))::int AS stale,
             (count(*) FILTER (WHERE NOT stale AND "potentiallyStale"))::int AS "potentiallyStale"
        FROM "Feature"
       WHERE "archivedAt" IS NULL AND "projectId" = ANY(${textArray(ids)})
       GROUP BY "projectId"`;
    const counts = new Map(rows.map(({ projectId, ...c }) => [projectId, c]));
    return ids.map((id) => counts.get(id) ?? NO_FEATURES);
  });
}
