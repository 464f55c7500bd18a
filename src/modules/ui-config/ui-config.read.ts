import type { Context } from "../../context.ts";

/** Instance ids by database: written once by the bootstrap, never changed. */
const instanceIds = new WeakMap<object, string>();

export async function instanceIdOf(db: Context["db"]): Promise<string | null> {
  const known = instanceIds.get(db);
  if (known) return known;
  const instance = await db.setting.findUnique({ where: { name: "instanceInfo" } });
  const id = (instance?.content as { id?: string } | null)?.id;
  if (id) instanceIds.set(db, id);
  return id ?? null;
}
