import type { Db } from "../../db/database.ts";
import { settingContent } from "../settings/setting.read.ts";

/** The instance's id, written by the bootstrap (null before it ran). */
export async function readInstanceId(db: Pick<Db, "setting">): Promise<string | null> {
  const instance = await settingContent(db, "instanceInfo");
  return (instance as { id?: string } | null | undefined)?.id ?? null;
}
