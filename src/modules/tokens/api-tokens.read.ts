import type { Db, Tx } from "../../db/database.ts";

/** How many API tokens (client, frontend) are for `environment`. */
export function apiTokenCountIn(db: Db | Tx, environment: string): Promise<number> {
  return db.apiToken.count({ where: { environment } });
}
