import type { Tx } from "../../db/database.ts";

/** The role named `name` (throws when there is none). */
export function roleNamed(tx: Tx, name: string) {
  return tx.role.findUniqueOrThrow({ where: { name } });
}

/** The role `id` (throws when there is none). */
export function roleWithId(tx: Tx, id: number) {
  return tx.role.findUniqueOrThrow({ where: { id } });
}
