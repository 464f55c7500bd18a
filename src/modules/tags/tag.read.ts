import type { Db, Tx } from "../../db/database.ts";

/** The names of the tag types among `names` (all of them without `names`). */
export async function tagTypeNames(db: Db | Tx, names?: string[]): Promise<string[]> {
  const types = await db.tagType.findMany({
    ...(names === undefined ? {} : { where: { name: { in: names } } }),
    select: { name: true },
  });
  return types.map((t) => t.name);
}
