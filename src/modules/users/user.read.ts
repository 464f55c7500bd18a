import type { Db, Tx } from "../../db/database.ts";

/** The user `id` (deleted ones too), or null. */
export function userById(db: Db | Tx, id: number) {
  return db.user.findUnique({ where: { id } });
}

/** The users among `ids` (deleted ones too). */
export function usersWithIds(db: Db | Tx, ids: number[]) {
  return db.user.findMany({ where: { id: { in: ids } } });
}
