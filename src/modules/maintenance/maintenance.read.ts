import type { Db } from "../../db/database.ts";
import { settingContent } from "../settings/setting.read.ts";

/** The setting that holds maintenance mode (`{enabled}`), shared by every node. */
export const MAINTENANCE_SETTING = "maintenance.mode";

export async function isMaintenanceMode(db: Pick<Db, "setting">): Promise<boolean> {
  const content = await settingContent(db, MAINTENANCE_SETTING);
  return (content as { enabled?: boolean } | undefined)?.enabled === true;
}
