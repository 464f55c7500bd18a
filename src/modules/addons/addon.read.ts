import type { Db } from "../../db/database.ts";

/** The addon `id`, or null (deleted). */
export function addonById(db: Db, id: number) {
  return db.addon.findUnique({ where: { id } });
}

/** How many deliveries are in each status, all addons. */
export function deliveryCountsByStatus(db: Db) {
  return db.addonDelivery.groupBy({ by: ["status"], _count: { _all: true } });
}
