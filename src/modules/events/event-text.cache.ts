import { LRUCache } from "lru-cache";
import type { EventSearchFilter } from "./event-search.read.ts";
import { NARROWING_CAP } from "./event-text.read.ts";

/**
 * The count of a free-text term's matches among the events with id <= `through`, a committed
 * horizon (the rollup's, event-counts.job.ts). Events are never updated or deleted, so it stays
 * true for ever; a later search of the term only counts the events above `through`.
 */
export type TextCount = { through: bigint; count: bigint };
/** Free-text terms whose counts are remembered per app (the least recently searched go first). */
const REMEMBERED_TERMS = 1000;

/** The app's remembered counts of free-text terms, and the first counts running. */
export type TextCounts = {
  /**
   * Runs a search (given the term's remembered count when it is worth using) and remembers the
   * count the search returns. Only a term with more than NARROWING_CAP matches is searched with
   * its remembered count: a selective term is cheaper to search afresh (its page needs all its
   * matches anyway). A term searched concurrently for the first time is counted once: the other
   * searches wait for that count, then use it.
   */
  withTextCount<T extends { counted: TextCount | null }>(
    filter: EventSearchFilter,
    search: (known?: TextCount) => Promise<T>,
  ): Promise<T>;
};

export function createTextCounts(): TextCounts {
  const counts = new LRUCache<string, TextCount>({ max: REMEMBERED_TERMS });
  const counting = new Map<string, Promise<unknown>>();
  return {
    async withTextCount(filter, search) {
      const term = rememberableTerm(filter);
      if (term === null) return search();
      const first = counting.get(term);
      if (first) await first.catch(() => {});
      const known = counts.get(term);
      const running = search(known && known.count > NARROWING_CAP ? known : undefined);
      if (!known) counting.set(term, running);
      try {
        const result = await running;
        if (result.counted) remember(counts, term, result.counted);
        return result;
      } finally {
        if (counting.get(term) === running) counting.delete(term);
      }
    },
  };
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

function remember(counts: LRUCache<string, TextCount>, term: string, count: TextCount) {
  if (count.through === 0n) return; // no rollup yet: nothing worth remembering
  const previous = counts.peek(term);
  if (previous && previous.through > count.through) return;
  counts.set(term, count);
}
