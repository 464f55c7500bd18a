import type { Db, Tx } from "../../db/database.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { NotFoundError } from "../../shared/errors.ts";

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
