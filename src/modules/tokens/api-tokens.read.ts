import type { Db, Tx } from "../../db/database.ts";

/** The API tokens of `types` among the hashed secrets `hashes` that have not expired at `now`. */
export function unexpiredTokensByHash(db: Db, hashes: string[], types: string[], now: Date) {
  return db.apiToken.findMany({
    where: {
      secretHash: { in: hashes },
      type: { in: types },
      OR: [{ expiresAt: null }, { expiresAt: { gt: now } }],
    },
    select: { secretHash: true, type: true, projects: true, environment: true },
  });
}

/** Whether API token `id` still exists and has not expired at `now`. */
export async function apiTokenInForce(db: Db, id: number, now: Date): Promise<boolean> {
  const token = await db.apiToken.findFirst({ where: { id }, select: { expiresAt: true } });
  return token !== null && (!token.expiresAt || token.expiresAt > now);
}

/** How many API tokens may read project `projectId` by name. */
export function apiTokenCountOfProject(db: Db, projectId: string) {
  return db.apiToken.count({ where: { projects: { has: projectId } } });
}

/** How many API tokens are of one of `types`. */
export function apiTokenCountOfTypes(db: Db, types: string[]) {
  return db.apiToken.count({ where: { type: { in: types } } });
}

/** How many API tokens (client, frontend) are for `environment`. */
export function apiTokenCountIn(db: Db | Tx, environment: string): Promise<number> {
  return db.apiToken.count({ where: { environment } });
}
