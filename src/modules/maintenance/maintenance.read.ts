import type { Db } from "../../db/database.ts";

/** The setting that holds maintenance mode (`{enabled}`), shared by every node. */
export const MAINTENANCE_SETTING = "maintenance.mode";

export async function isMaintenanceMode(db: Pick<Db, "setting">): Promise<boolean> {
  const row = await db.setting.findUnique({ where: { name: MAINTENANCE_SETTING } });
  return (row?.content as { enabled?: boolean } | undefined)?.enabled === true;
}
