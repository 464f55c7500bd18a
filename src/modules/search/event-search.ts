import type { Db } from "../../db/database.ts";
import { type PageWindow, toConnection } from "../../shared/pagination.ts";
import { and, containsPattern, type Sql, sql } from "./feature-search.sql.ts";
import { dayStart, invalid } from "./feature-search.ts";

type Equality = { operator: "IS" | "IS_ANY_OF"; values: string[] };

export type EventTextScope = "PAYLOAD" | "TYPE_ACTOR_DATA";

export type EventSearchFilter = {
  query?: string | null;
  queryScope?: EventTextScope | null;
  feature?: Equality | null;
  project?: Equality | null;
  type?: Equality | null;
  environment?: Equality | null;
  createdBy?: Equality | null;
  from?: string | null;
  to?: string | null;
  maxId?: bigint | null;
};

/**
 * The text `query` searches by default: data, preData and tags as JSON text. Written exactly
 * as in the trigram index `Event_search_text_trgm_idx` (migration search_indexes), so the
 * planner can use it.
 */
const PAYLOAD_TEXT = sql`(coalesce(e."data"::text, '') || ' ' || coalesce(e."preData"::text, '') || ' ' || e."tags"::text)`;
const DAY_MS = 86_400_000;

/**
 * Event search (spec 4.4 and the legacy 4.13): ids of one page of matching events, newest
 * first (id descending: ids increase with time), and the number of all matches.
 */
export async function searchEvents(db: Db, filter: EventSearchFilter, window: PageWindow) {
  const query = eventSearchQuery(filter, window);
  const [rows, count] = await Promise.all([
    db.$queryRaw<{ id: bigint }[]>(query.page),
    db.$queryRaw<{ total: bigint }[]>(query.count),
  ]);
  return { ids: rows.map((r) => r.id), total: Number(count[0]?.total ?? 0) };
}

/**
 * One page of the audit log as a Relay connection: the matching ids from `searchEvents`, then
 * the rows with the caller's GraphQL selection (`select` from `queryFromInfo`), newest first.
 * The one listing used by `events` and `eventSearch`.
 */
export async function eventConnection(db: Db, select: object, filter: EventSearchFilter, window: PageWindow) {
  const page = await searchEvents(db, filter, window);
  const rows = await db.event.findMany({
    ...select,
    where: { id: { in: page.ids } },
    orderBy: { id: "desc" },
  });
  return toConnection(rows, window, page.total);
}

/** The statements event search runs (exported for the benchmark's EXPLAIN ANALYZE). */
export function eventSearchQuery(filter: EventSearchFilter, window: PageWindow): { page: Sql; count: Sql } {
  const where = whereOf(filter);
  return {
    page: sql`SELECT e.id FROM "Event" e WHERE ${where} ORDER BY e.id DESC LIMIT ${window.limit} OFFSET ${window.offset}`,
    count: sql`SELECT count(*) AS total FROM "Event" e WHERE ${where}`,
  };
}

function whereOf(filter: EventSearchFilter): Sql {
  const parts: Sql[] = [];
  const term = filter.query?.trim();
  if (term) parts.push(textCondition(containsPattern(term), filter.queryScope ?? "PAYLOAD"));
  if (filter.feature) parts.push(sql`e."featureName" = ANY(${filter.feature.values}::text[])`);
  if (filter.project) parts.push(sql`e.project = ANY(${filter.project.values}::text[])`);
  if (filter.type) parts.push(sql`e.type = ANY(${filter.type.values}::text[])`);
  if (filter.environment) parts.push(sql`e.environment = ANY(${filter.environment.values}::text[])`);
  if (filter.createdBy) {
    const bad = filter.createdBy.values.find((v) => !/^-?\d+$/.test(v));
    if (bad !== undefined)
      throw invalid("createdBy", `createdBy values are user ids (integers); got "${bad}"`);
    parts.push(sql`e."createdByUserId" = ANY(${filter.createdBy.values.map(Number)}::int[])`);
  }
  if (filter.from) parts.push(sql`e."createdAt" >= ${dayStart("from", filter.from)}`);
  if (filter.to) parts.push(sql`e."createdAt" < ${new Date(dayStart("to", filter.to).getTime() + DAY_MS)}`);
  if (filter.maxId !== undefined && filter.maxId !== null) parts.push(sql`e.id <= ${filter.maxId}`);
  return and(parts);
}

function textCondition(pattern: string, scope: EventTextScope): Sql {
  if (scope === "PAYLOAD") return sql`${PAYLOAD_TEXT} ILIKE ${pattern}`;
  return sql`(e.type ILIKE ${pattern} OR e."createdBy" ILIKE ${pattern}
    OR coalesce(e."data"::text, '') ILIKE ${pattern}
    OR EXISTS (SELECT 1 FROM "User" u WHERE u.id = e."createdByUserId"
      AND (u.name ILIKE ${pattern} OR u.email ILIKE ${pattern} OR u.username ILIKE ${pattern})))`;
}
