import type { Db, Tx } from "../../db/database.ts";

/** The context fields among `names`. */
export function contextFieldsNamed(db: Db | Tx, names: string[]) {
  return db.contextField.findMany({ where: { name: { in: names } } });
}

/** How many of `names` are context fields. */
export function contextFieldCount(db: Db | Tx, names: string[]): Promise<number> {
  return db.contextField.count({ where: { name: { in: names } } });
}

/** How many context fields there are. */
export function allContextFieldCount(db: Db) {
  return db.contextField.count();
}
