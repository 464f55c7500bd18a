import type { Tx } from "../../db/database.ts";
import type { Prisma } from "../../generated/prisma/client.ts";

// The Setting table holds one JSON document per instance-wide setting (maintenance mode, the
// frontend API's origins, ...). Every module that keeps a setting stores it here, so the
// table has one writer (src/db/table-owners.ts); the caller records its own event.

/** Stores `content` as setting `name`, replacing what was there. */
export async function saveSetting(tx: Tx, name: string, content: Prisma.InputJsonValue) {
  await tx.setting.upsert({ where: { name }, create: { name, content }, update: { content } });
}
