import type { Db } from "../../db/database.ts";
import type { Prisma } from "../../generated/prisma/client.ts";

/** The stored content of setting `name` (undefined when none is stored). */
export async function settingContent(
  db: Pick<Db, "setting">,
  name: string,
): Promise<Prisma.JsonValue | undefined> {
  const row = await db.setting.findUnique({ where: { name } });
  return row?.content;
}
