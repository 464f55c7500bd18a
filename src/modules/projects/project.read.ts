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
