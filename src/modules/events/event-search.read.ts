import type { Db } from "../../db/database.ts";
import type { StoredEvent } from "../../events/types.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { type Ordering, type PageRequest, rowsToRead, toConnection } from "../../shared/pagination.ts";
import { sqlOf } from "../../shared/sql.ts";
import { dayStart, invalid } from "../search/feature-search.read.ts";
import {
  and,
  containsPattern,
  equalsAny,
  orderOf,
  type Sql,
  type SqlSortKey,
  seekSql,
  sql,
} from "../search/feature-search-sql.logic.ts";
import { NEWER_THAN_ROLLUP, ROLLED_UP_THROUGH, rolledUpCount } from "./event-counts.read.ts";
import type { TextCount, TextCounts } from "./event-text.cache.ts";
import { matchingIds, PAYLOAD_TEXT } from "./event-text.read.ts";
import type { EventVisibility } from "./visibility.logic.ts";

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
  until?: Date | null;
  /** Only events that have a project (set by visibleTo, never by callers). */
  withProject?: boolean;
};

const DAY_MS = 86_400_000;

/** The audit log's one order: newest first (ids increase with time). */
export const EVENT_ORDER: Ordering = { name: "newest", size: 1 };
/** That order over the ids of `rows` (an alias). */
const byIdDesc = (rows: string): SqlSortKey[] => [
  { expression: sql`${Prisma.raw(rows)}.id`, type: sql`bigint`, descending: true },
];

type SearchRow = StoredEvent & { total: bigint; upto: bigint | null; horizon: bigint | null };

/**
 * Event search (spec 4.4 and the legacy 4.13): one page of matching events, newest first (id
 * descending: ids increase with time), and the number of all matches, read by one statement.
 */
function searchEvents(db: Db, textCounts: TextCounts, filter: EventSearchFilter, request: PageRequest) {
  return textCounts.withTextCount(filter, (known) => runSearch(db, filter, request, known));
}

async function runSearch(db: Db, filter: EventSearchFilter, request: PageRequest, known?: TextCount) {
  const rows = await sqlOf(db).query<SearchRow>(eventSearchQuery(filter, request, known));
  const events: StoredEvent[] = [];
  for (const { total: _t, upto: _u, horizon: _h, ...event } of rows) {
    if (event.id !== null) events.push(event);
  }
  const first = rows[0];
  const counted =
    first && first.horizon !== null && first.upto !== null
      ? { through: BigInt(first.horizon), count: BigInt(first.upto) }
      : null;
  return { events, total: Number(first?.total ?? 0), counted };
}

/**
 * One page of the audit log as a Relay connection, the one listing used by `events` and
 * `eventSearch`, holding only the events `visibility` lets the caller read. The page's rows
 * come whole from the search statement (an event has no relations, so the GraphQL selection
 * never needs a second statement).
 */
export async function eventConnection(
  db: Db,
  textCounts: TextCounts,
  filter: EventSearchFilter,
  request: PageRequest,
  visibility: EventVisibility,
) {
  const page = await searchEvents(db, textCounts, visibleTo(filter, visibility), request);
  return toConnection(page.events, request, page.total, (event) => [String(event.id)]);
}

/**
 * The filter narrowed to the events `visibility` allows, written as filters the search (and
 * its rollups) already know: the readable projects become (or narrow) the project filter;
 * "every event with a project" is `withProject`, implied by any project filter.
 */
export function visibleTo(filter: EventSearchFilter, visibility: EventVisibility): EventSearchFilter {
  const { projects } = visibility;
  if (projects === null) return filter;
  if (projects === "*") return filter.project ? filter : { ...filter, withProject: true };
  const values = filter.project ? filter.project.values.filter((p) => projects.includes(p)) : projects;
  return { ...filter, project: { operator: "IS_ANY_OF", values } };
}

/**
 * The statement event search runs (exported for the benchmark's EXPLAIN ANALYZE): the total as
 * one row, joined to the page's events (none when the page is past the end: one row of nulls).
 *
 * - Free text, first time: the matching ids are found once (a MATERIALIZED CTE) and both
 *   counted and paged, so the trigram index is scanned once, not once for the page and once
 *   for the total. The count up to the rollup's horizon comes back too, to be remembered.
 * - Free text, remembered (`known`): the remembered count plus the matches above its horizon
 *   (a short primary-key range); the page reads the newest events and stops after the page.
 * - Otherwise the page reads an `(column, id)` index backwards and stops after the page, and
 *   the total comes from the rollup plus a live count of the newer events when the filter has
 *   a rollup (event-counts.read.ts), else from counting.
 */
export function eventSearchQuery(filter: EventSearchFilter, request: PageRequest, known?: TextCount): Sql {
  const where = whereOf(filter);
  const order = orderOf(byIdDesc("e"), request);
  const limit = sql`LIMIT ${rowsToRead(request)} OFFSET ${request.offset}`;
  const page = sql`AND ${seekSql(byIdDesc("e"), request)} ORDER BY ${order} ${limit}`;
  const withPage = (counted: Sql, pageRows: Sql) => sql`${counted}
    LEFT JOIN LATERAL (${pageRows}) p ON TRUE
    ORDER BY ${orderOf(byIdDesc("p"), request)}`;
  if (!filter.query?.trim()) {
    return withPage(
      sql`SELECT p.*, t.total, NULL::bigint AS upto, NULL::bigint AS horizon FROM (SELECT ${totalOf(filter, where)} AS total) t`,
      sql`SELECT e.* FROM "Event" e WHERE ${where} ${page}`,
    );
  }
  const horizon = sql`(SELECT ${ROLLED_UP_THROUGH}::bigint AS id)`;
  if (known) {
    return withPage(
      sql`WITH newer AS MATERIALIZED (SELECT e.id FROM "Event" e WHERE e.id > ${known.through} AND ${where}),
        horizon AS ${horizon}
        SELECT p.*, t.* FROM (SELECT ${known.count}::bigint + (SELECT count(*) FROM newer) AS total,
          ${known.count}::bigint + (SELECT count(*) FROM newer n WHERE n.id <= (SELECT id FROM horizon)) AS upto,
          (SELECT id FROM horizon) AS horizon) t`,
      sql`SELECT e.* FROM "Event" e WHERE ${where} ${page}`,
    );
  }
  return withPage(
    sql`WITH ${matchingIds(filter, where, whereOf({ ...filter, query: null }))},
      horizon AS ${horizon}
      SELECT p.*, t.* FROM (SELECT (SELECT count(*) FROM matching) AS total,
        (SELECT count(*) FROM matching m WHERE m.id <= (SELECT id FROM horizon)) AS upto,
        (SELECT id FROM horizon) AS horizon) t`,
    sql`SELECT e.* FROM "Event" e
      WHERE e.id IN (SELECT m.id FROM matching m WHERE ${seekSql(byIdDesc("m"), request)}
        ORDER BY ${orderOf(byIdDesc("m"), request)} ${limit})
      ORDER BY ${order}`,
  );
}

function totalOf(filter: EventSearchFilter, where: Sql): Sql {
  const rolledUp = rolledUpCount(filter);
  if (!rolledUp) return sql`(SELECT count(*) FROM "Event" e WHERE ${where})`;
  return sql`(${rolledUp} + (SELECT count(*) FROM "Event" e WHERE ${NEWER_THAN_ROLLUP} AND ${where}))::bigint`;
}

function whereOf(filter: EventSearchFilter): Sql {
  const parts: Sql[] = [];
  const term = filter.query?.trim();
  if (term) parts.push(textCondition(containsPattern(term), filter.queryScope ?? "PAYLOAD"));
  if (filter.feature) parts.push(equalsAny(sql`e."featureName"`, filter.feature.values, "text"));
  if (filter.project) parts.push(equalsAny(sql`e.project`, filter.project.values, "text"));
  if (filter.withProject) parts.push(sql`e.project IS NOT NULL`);
  if (filter.type) parts.push(equalsAny(sql`e.type`, filter.type.values, "text"));
  if (filter.environment) parts.push(equalsAny(sql`e.environment`, filter.environment.values, "text"));
  if (filter.createdBy) {
    const bad = filter.createdBy.values.find((v) => !/^-?\d+$/.test(v));
    if (bad !== undefined)
      throw invalid("createdBy", `createdBy values are user ids (integers); got "${bad}"`);
    parts.push(equalsAny(sql`e."createdByUserId"`, filter.createdBy.values.map(Number), "int"));
  }
  if (filter.from) parts.push(sql`e."createdAt" >= ${dayStart("from", filter.from)}`);
  if (filter.to) parts.push(sql`e."createdAt" < ${new Date(dayStart("to", filter.to).getTime() + DAY_MS)}`);
  if (filter.maxId !== undefined && filter.maxId !== null) parts.push(sql`e.id <= ${filter.maxId}`);
  if (filter.until) parts.push(sql`e."createdAt" <= ${filter.until}`);
  return and(parts);
}

function textCondition(pattern: string, scope: EventTextScope): Sql {
  if (scope === "PAYLOAD") return sql`${PAYLOAD_TEXT} ILIKE ${pattern}`;
  return sql`(e.type ILIKE ${pattern} OR e."createdBy" ILIKE ${pattern}
    OR coalesce(e."data"::text, '') ILIKE ${pattern}
    OR EXISTS (SELECT 1 FROM "User" u WHERE u.id = e."createdByUserId"
      AND (u.name ILIKE ${pattern} OR u.email ILIKE ${pattern} OR u.username ILIKE ${pattern})))`;
}
