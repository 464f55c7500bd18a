import type { Db, Tx } from "../../db/database.ts";
import type { StoredEvent } from "../../events/types.ts";
import { Prisma } from "../../generated/prisma/client.ts";
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

/** Events of project `projectId` per UTC day since `since`, by day. */
export function projectActivityByDay(db: Db, projectId: string, since: Date) {
  return sqlOf(db).query<{ date: string; count: bigint }>(Prisma.sql`
    SELECT to_char(("createdAt" AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS date, count(*) AS count
    FROM "Event" WHERE project = ${projectId} AND "createdAt" >= ${since}
    GROUP BY 1 ORDER BY 1`);
}

/** How many events project `projectId` recorded in `range`. */
export function projectEventCount(db: Db, projectId: string, range: { gte: Date; lt?: Date }) {
  return db.event.count({ where: { project: projectId, createdAt: range } });
}

/** How many events of environments `environments` were recorded since `since`. */
export function environmentEventCount(db: Db, environments: string[], since: Date) {
  return db.event.count({ where: { createdAt: { gte: since }, environment: { in: environments } } });
}

/** How many events of `type` were recorded. */
export function eventCountOfType(db: Db, type: string) {
  return db.event.count({ where: { type } });
}
