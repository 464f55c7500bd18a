import type { Db, Tx } from "../../db/database.ts";

/** The user `id` (deleted ones too), or null. */
export function userById(db: Db | Tx, id: number) {
  return db.user.findUnique({ where: { id } });
}
