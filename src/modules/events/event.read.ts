import type { Db, Tx } from "../../db/database.ts";
import type { StoredEvent } from "../../events/types.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { sqlOf } from "../../shared/sql.ts";

/** The stored event `id`, or null. */
export function eventById(db: Db, id: bigint) {
  return db.event.findUnique({ where: { id } });
}

/** At most `take` events with ids in (`after`, `upTo`] (and matching `where`), in id order. */
export async function eventsAfter(
  db: Db,
  range: { after: bigint; upTo: bigint; take: number },
  where?: Prisma.EventWhereInput,
): Promise<StoredEvent[]> {
  const ids = { id: { gt: range.after, lte: range.upTo } };
  return (await db.event.findMany({
    where: where ? { AND: [where, ids] } : ids,
    orderBy: { id: "asc" },
    take: range.take,
  })) as StoredEvent[];
}

/**
 * Tag and tag-type deletions in (`after`, `through`], as stored.
 * Raw, with the two types in the text: as parameters PostgreSQL could not see from its statistics
 * that such events are rare, and planned the statement at every time-travel read (D-09).
 */
export function tagDeletionEvents(db: Db | Tx, after: Date, through: Date) {
  return sqlOf(db).query<{ type: string; createdAt: Date; data: unknown; preData: unknown }>`
    SELECT type, "createdAt", data, "preData" FROM "Event"
     WHERE type IN ('tag-deleted', 'tag-type-deleted')
       AND "createdAt" > ${after}::timestamp(3) AND "createdAt" <= ${through}::timestamp(3)`;
}

/** The `take` newest events of project `projectId`, as the dashboard lists them. */
export function latestProjectEvents(db: Db, projectId: string, take: number) {
  return db.event.findMany({
    where: { project: projectId },
    orderBy: { id: "desc" },
    take,
    select: { id: true, summary: true, createdBy: true, createdByUserId: true, createdAt: true },
  });
}

/** Whether project `projectId` has recorded an event of `type`. */
export async function projectHasEvent(db: Db, projectId: string, type: string): Promise<boolean> {
  const found = await db.event.findFirst({ where: { project: projectId, type }, select: { id: true } });
  return found !== null;
}
