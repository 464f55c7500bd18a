import type { Db } from "../../db/database.ts";
import type { StoredEvent } from "../../events/types.ts";
import { type PageWindow, toConnection } from "../../shared/pagination.ts";
import { ROLLED_UP_THROUGH, rolledUpCount } from "./event-counts.ts";
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
 * The count of a free-text term's matches among the events with id <= `through`, a committed
 * horizon (the rollup's, event-counts.ts). Events are never updated or deleted, so it stays
 * true for ever; a later search of the term only counts the events above `through`.
 */
export type TextCount = { through: bigint; count: bigint };
/** Per database: the remembered terms (most recently used last) and the first counts running. */
type TextMemory = { counts: Map<string, TextCount>; counting: Map<string, Promise<unknown>> };
const textMemories = new WeakMap<Db, TextMemory>();
const REMEMBERED_TERMS = 1000;

type SearchRow = StoredEvent & { total: bigint; upto: bigint | null; horizon: bigint | null };

/**
 * Event search (spec 4.4 and the legacy 4.13): one page of matching events, newest first (id
 * descending: ids increase with time), and the number of all matches, read by one statement.
 */
export async function searchEvents(db: Db, filter: EventSearchFilter, window: PageWindow) {
  const term = rememberableTerm(filter);
  if (term === null) return runSearch(db, filter, window);
  const memory = textMemoryOf(db);
  // A term being counted for the first time is counted once: concurrent searches of it wait
  // for that count, then use it.
  const counting = memory.counting.get(term);
  if (counting) await counting.catch(() => {});
  const known = memory.counts.get(term);
  // A selective term is cheaper to search afresh (the page needs all its matches anyway).
  if (known && known.count > NARROWING_CAP) return runSearch(db, filter, window, term, known);
  const search = runSearch(db, filter, window, term);
  memory.counting.set(term, search);
  try {
    return await search;
  } finally {
    if (memory.counting.get(term) === search) memory.counting.delete(term);
  }
}

async function runSearch(
  db: Db,
  filter: EventSearchFilter,
  window: PageWindow,
  term?: string,
  known?: TextCount,
) {
  const rows = await db.$queryRaw<SearchRow[]>(eventSearchQuery(filter, window, known));
  const events: StoredEvent[] = [];
  for (const { total: _t, upto: _u, horizon: _h, ...event } of rows) {
    if (event.id !== null) events.push(event);
  }
  const first = rows[0];
  if (term !== undefined && first?.horizon && first.upto !== null) {
    remember(db, term, { through: BigInt(first.horizon), count: BigInt(first.upto) });
  }
  return { events, total: Number(first?.total ?? 0) };
}

/**
 * One page of the audit log as a Relay connection, the one listing used by `events` and
 * `eventSearch`. The page's rows come whole from the search statement (an event has no
 * relations, so the GraphQL selection never needs a second statement).
 */
export async function eventConnection(db: Db, filter: EventSearchFilter, window: PageWindow) {
  const page = await searchEvents(db, filter, window);
  return toConnection(page.events, window, page.total);
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
 *   a rollup (event-counts.ts), else from counting.
 */
export function eventSearchQuery(filter: EventSearchFilter, window: PageWindow, known?: TextCount): Sql {
  const where = whereOf(filter);
  const page = sql`ORDER BY e.id DESC LIMIT ${window.limit} OFFSET ${window.offset}`;
  const withPage = (counted: Sql, pageRows: Sql) => sql`${counted}
    LEFT JOIN LATERAL (${pageRows}) p ON TRUE
    ORDER BY p.id DESC`;
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
    sql`WITH ${matchingIds(filter, where)},
      horizon AS ${horizon}
      SELECT p.*, t.* FROM (SELECT (SELECT count(*) FROM matching) AS total,
        (SELECT count(*) FROM matching m WHERE m.id <= (SELECT id FROM horizon)) AS upto,
        (SELECT id FROM horizon) AS horizon) t`,
    sql`SELECT e.* FROM "Event" e
      WHERE e.id IN (SELECT m.id FROM matching m ORDER BY m.id DESC LIMIT ${window.limit} OFFSET ${window.offset})
      ORDER BY e.id DESC`,
  );
}

/**
 * The CTE `matching`: the ids of all events matching a free-text filter.
 *
 * The trigram index reads the whole posting list of every trigram of the pattern, and a list
 * as long as the log (a word in nearly every event, such as "flag" or "change") costs ~1,500
 * index pages: most of the time of a selective search like `flag-04242`. So when the term
 * holds a distinctive word (narrowingWord), the index is asked for that word alone, and the
 * few candidates are checked against the whole term. If the word turns out common (more than
 * NARROWING_CAP candidates), the whole term goes through the index as before. Either way the
 * result is exactly the events the whole term matches: every one of them contains the word.
 */
function matchingIds(filter: EventSearchFilter, where: Sql): Sql {
  const term = filter.query?.trim() ?? "";
  const word = (filter.queryScope ?? "PAYLOAD") === "PAYLOAD" ? narrowingWord(term) : null;
  if (!word) return sql`matching AS MATERIALIZED (SELECT e.id FROM "Event" e WHERE ${where})`;
  const others = whereOf({ ...filter, query: null });
  return sql`candidates AS MATERIALIZED (
      SELECT e.id, ${PAYLOAD_TEXT} ILIKE ${containsPattern(term)} AS hit FROM "Event" e
      WHERE ${PAYLOAD_TEXT} ILIKE ${containsPattern(word)} AND ${others} LIMIT ${NARROWING_CAP + 1}),
    matching AS MATERIALIZED (
      SELECT c.id FROM candidates c WHERE c.hit AND (SELECT count(*) FROM candidates) <= ${NARROWING_CAP}
      UNION ALL
      SELECT e.id FROM "Event" e WHERE ${where} AND (SELECT count(*) FROM candidates) > ${NARROWING_CAP})`;
}

/** Candidates of a narrowing word worth checking one by one against the whole term. */
const NARROWING_CAP = 2000;

/**
 * The word of a several-word term most likely to be rare: ASCII letters and digits only (so
 * case-insensitive containment of the term implies that of the word), at least 3 characters
 * (one trigram), preferring words with digits (ids, numbers), then the longest. Null for a
 * one-word term (nothing to narrow).
 */
export function narrowingWord(term: string): string | null {
  const words = (term.match(/[A-Za-z0-9]{3,}/g) ?? []).filter((w) => w.length < term.length);
  const score = (w: string) => (/\d/.test(w) ? 1000 : 0) + w.length;
  return words.reduce<string | null>((best, w) => (best === null || score(w) > score(best) ? w : best), null);
}

/**
 * The term whose count can be remembered: a free-text search of the payload (immutable, unlike
 * the user names the TYPE_ACTOR_DATA scope reads) with no other filter. Null otherwise.
 */
function rememberableTerm(filter: EventSearchFilter): string | null {
  const term = filter.query?.trim();
  if (!term || (filter.queryScope ?? "PAYLOAD") !== "PAYLOAD") return null;
  const { query: _q, queryScope: _s, ...others } = filter;
  return Object.values(others).every((v) => v === undefined || v === null) ? term : null;
}

function textMemoryOf(db: Db): TextMemory {
  let memory = textMemories.get(db);
  if (!memory) {
    memory = { counts: new Map(), counting: new Map() };
    textMemories.set(db, memory);
  }
  return memory;
}

function remember(db: Db, term: string, count: TextCount) {
  if (count.through === 0n) return; // no rollup yet: nothing worth remembering
  const { counts } = textMemoryOf(db);
  const previous = counts.get(term);
  if (previous && previous.through > count.through) return;
  counts.delete(term);
  counts.set(term, count);
  if (counts.size > REMEMBERED_TERMS) counts.delete(counts.keys().next().value as string);
}

function totalOf(filter: EventSearchFilter, where: Sql): Sql {
  const rolledUp = rolledUpCount(filter);
  if (!rolledUp) return sql`(SELECT count(*) FROM "Event" e WHERE ${where})`;
  return sql`(${rolledUp} + (SELECT count(*) FROM "Event" e WHERE e.id > ${ROLLED_UP_THROUGH} AND ${where}))::bigint`;
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
