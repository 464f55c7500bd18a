import type { Db } from "../../db/database.ts";

/** The instance's id, written by the bootstrap (null before it ran). */
export async function readInstanceId(db: Pick<Db, "setting">): Promise<string | null> {
  const instance = await db.setting.findUnique({ where: { name: "instanceInfo" } });
  return (instance?.content as { id?: string } | null)?.id ?? null;
}
