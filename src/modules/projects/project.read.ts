import DataLoader from "dataloader";
import type { Db, Tx } from "../../db/database.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { sqlOf } from "../../shared/sql.ts";
import { textArray } from "../../shared/text-array.ts";

/** The project `id` (archived ones too), or null. */
export function projectById(db: Db | Tx, id: string) {
  return db.project.findUnique({ where: { id } });
}

/** Loads a project (archived ones too) or throws NotFoundError. */
export async function findProject(tx: Db | Tx, id: string) {
  const project = await projectById(tx, id);
  if (!project) throw new NotFoundError(`Could not find project with id "${id}"`);
  return project;
}

/** The project `id` as a Pothos field's `query` asks for it (its relations included). */
export function projectForQuery(
  db: Db | Tx,
  query: { include?: Prisma.ProjectInclude; select?: Prisma.ProjectSelect },
  id: string,
) {
  return db.project.findUniqueOrThrow({ ...query, where: { id } });
}

/** Whether project `id` is archived, and its link to `environment` (none: not enabled there); null when unknown. */
export function projectWithEnvironment(tx: Db | Tx, id: string, environment: string) {
  return tx.project.findUnique({
    where: { id },
    select: { archivedAt: true, environments: { where: { environmentName: environment } } },
  });
}

/** The names of the environments project `id` is enabled in. */
export async function environmentNamesOfProject(tx: Db | Tx, id: string): Promise<string[]> {
  return (await tx.projectEnvironment.findMany({ where: { projectId: id } })).map((l) => l.environmentName);
}

/** The projects `ids` with their health, members and count of active flags, by name. */
export function projectSummaries(db: Db, ids: string[]) {
  return db.project.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      name: true,
      health: true,
      members: { select: { userId: true } },
      _count: { select: { features: { where: { archivedAt: null } } } },
    },
    orderBy: { name: "asc" },
  });
}

/** How many projects there are (archived ones too). */
export function projectCount(db: Db) {
  return db.project.count();
}

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
