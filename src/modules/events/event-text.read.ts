import type { Db } from "../../db/database.ts";
import { containsPattern, type Sql, sql } from "../search/feature-search-sql.logic.ts";
import type { EventSearchFilter } from "./event-search.read.ts";

/*
 * Free-text event search (`query`): the text it reads, how the trigram index is asked, and the
 * counts of common terms each node remembers.
 */

/**
 * The text `query` searches by default: data, preData and tags as JSON text. Written exactly
 * as in the trigram index `Event_search_text_trgm_idx` (migration search_indexes), so the
 * planner can use it.
 */
export const PAYLOAD_TEXT = sql`(coalesce(e."data"::text, '') || ' ' || coalesce(e."preData"::text, '') || ' ' || e."tags"::text)`;

/**
 * The count of a free-text term's matches among the events with id <= `through`, a committed
 * horizon (the rollup's, event-counts.job.ts). Events are never updated or deleted, so it stays
 * true for ever; a later search of the term only counts the events above `through`.
 */
export type TextCount = { through: bigint; count: bigint };
/** Per database: the remembered terms (most recently used last) and the first counts running. */
type TextMemory = { counts: Map<string, TextCount>; counting: Map<string, Promise<unknown>> };
const textMemories = new WeakMap<Db, TextMemory>();
const REMEMBERED_TERMS = 1000;

/**
 * Runs a search (given the term's remembered count when it is worth using) and remembers the
 * count the search returns. Only a term with more than NARROWING_CAP matches is searched with
 * its remembered count: a selective term is cheaper to search afresh (its page needs all its
 * matches anyway). A term searched concurrently for the first time is counted once: the other
 * searches wait for that count, then use it.
 */
export async function withTextCount<T extends { counted: TextCount | null }>(
  db: Db,
  filter: EventSearchFilter,
  search: (known?: TextCount) => Promise<T>,
): Promise<T> {
  const term = rememberableTerm(filter);
  if (term === null) return search();
  const memory = textMemoryOf(db);
  const counting = memory.counting.get(term);
  if (counting) await counting.catch(() => {});
  const known = memory.counts.get(term);
  const running = search(known && known.count > NARROWING_CAP ? known : undefined);
  if (!known) memory.counting.set(term, running);
  try {
    const result = await running;
    if (result.counted) remember(memory, term, result.counted);
    return result;
  } finally {
    if (memory.counting.get(term) === running) memory.counting.delete(term);
  }
}

/**
 * The CTE `matching`: the ids of all events matching a free-text filter (`where`: all of it;
 * `others`: all but the text).
 *
 * The trigram index reads the whole posting list of every trigram of the pattern, and a list
 * as long as the log (a word in nearly every event, such as "flag" or "change") costs ~1,500
 * index pages: most of the time of a selective search like `flag-04242`. So when the term
 * holds a distinctive word (narrowingWord), the index is asked for that word alone, and the
 * few candidates are checked against the whole term. If the word turns out common (more than
 * NARROWING_CAP candidates), the whole term goes through the index as before. Either way the
 * result is exactly the events the whole term matches: every one of them contains the word.
 */
export function matchingIds(filter: EventSearchFilter, where: Sql, others: Sql): Sql {
  const term = filter.query?.trim() ?? "";
  const word = (filter.queryScope ?? "PAYLOAD") === "PAYLOAD" ? narrowingWord(term) : null;
  if (!word) return sql`matching AS MATERIALIZED (SELECT e.id FROM "Event" e WHERE ${where})`;
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
function narrowingWord(term: string): string | null {
  const words = (term.match(/[A-Za-z0-9]{3,}/g) ?? []).filter((w) => w.length < term.length);
  const score = (w: string) => (/\d/.test(w) ? 1000 : 0) + w.length;
  return words.reduce<string | null>((best, w) => (best === null || score(w) > score(best) ? w : best), null);
}

/**
 * The key of a count that can be remembered: a free-text search of the payload (immutable,
 * unlike the user names the TYPE_ACTOR_DATA scope reads) with no other filter but, maybe,
 * `withProject` (an event's project never changes either). Null otherwise.
 */
function rememberableTerm(filter: EventSearchFilter): string | null {
  const term = filter.query?.trim();
  if (!term || (filter.queryScope ?? "PAYLOAD") !== "PAYLOAD") return null;
  const { query: _q, queryScope: _s, withProject, ...others } = filter;
  if (!Object.values(others).every((v) => v === undefined || v === null)) return null;
  return withProject ? `with-project\u0000${term}` : term;
}

function textMemoryOf(db: Db): TextMemory {
  let memory = textMemories.get(db);
  if (!memory) {
    memory = { counts: new Map(), counting: new Map() };
    textMemories.set(db, memory);
  }
  return memory;
}

function remember({ counts }: TextMemory, term: string, count: TextCount) {
  if (count.through === 0n) return; // no rollup yet: nothing worth remembering
  const previous = counts.get(term);
  if (previous && previous.through > count.through) return;
  counts.delete(term);
  counts.set(term, count);
  if (counts.size > REMEMBERED_TERMS) counts.delete(counts.keys().next().value as string);
}
