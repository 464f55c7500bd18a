import type { Db } from "../../db/database.ts";

/** The stored event `id`, or null. */
export function eventById(db: Db, id: bigint) {
  return db.event.findUnique({ where: { id } });
}
