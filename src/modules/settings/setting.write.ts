import type { Tx } from "../../db/database.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { lockRow } from "../../shared/row-lock.ts";

// The Setting table holds one JSON document per instance-wide setting (maintenance mode, the
// frontend API's origins, ...). Every module that keeps a setting stores it here, so the
// table has one writer (src/db/table-owners.ts); the caller records its own event (D-04).

/**
 * The setting `name` as it was before this transaction's change, locked as `lockRow` locks a row;
 * null when there was none, and then this call has stored `initial` as its content. A missing row
 * cannot be locked: two first writers would both see none and both record a creation. The insert
 * settles that: a concurrent one waits for the first to commit, then finds the row and locks it.
 */
export async function createOrLockSetting(tx: Tx, name: string, initial: Prisma.InputJsonValue) {
  const created = await tx.setting.createMany({ data: [{ name, content: initial }], skipDuplicates: true });
  if (created.count === 1) return null;
  await lockRow(tx, "Setting", name);
  return tx.setting.findUnique({ where: { name } });
}

/** Replaces the content of setting `name`, a row `createOrLockSetting` found and locked. */
export async function updateSetting(tx: Tx, name: string, content: Prisma.InputJsonValue) {
  await tx.setting.update({ where: { name }, data: { content } });
}
