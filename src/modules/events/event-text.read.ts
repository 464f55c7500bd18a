import { containsPattern, type Sql, sql } from "../search/feature-search-sql.logic.ts";
import type { EventSearchFilter } from "./event-search.read.ts";

/*
 * Free-text event search (`query`): the text it reads and how the trigram index is asked (the
 * counts of common terms each node remembers: event-text.cache.ts).
 */

/**
 * The text `query` searches by default: data, preData and tags as JSON text. Written exactly
 * as in the trigram index `Event_search_text_trgm_idx` (migration search_indexes), so the
 * planner can use it.
 */
export const PAYLOAD_TEXT = sql`(coalesce(e."data"::text, '') || ' ' || coalesce(e."preData"::text, '') || ' ' || e."tags"::text)`;

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
export const NARROWING_CAP = 2000;

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
