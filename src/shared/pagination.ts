import { cursorToOffset, offsetToCursor } from "@pothos/plugin-relay";
import { ValidationError } from "./errors.ts";

/**
 * The one pagination helper. GraphQL connections take `first`/`after` (Relay) or `offset`;
 * REST's `offset`/`limit` are passed through as `offset`/`first`. Both end in an offset window.
 */
export type PageArgs = { first?: number | null; after?: string | null; offset?: number | null };
export type PageLimits = { defaultLimit: number; maxLimit: number; minLimit?: number };
export type PageWindow = { offset: number; limit: number };

export function pageWindow(args: PageArgs, limits: PageLimits): PageWindow {
  const limit = args.first ?? limits.defaultLimit;
  const min = limits.minLimit ?? 0;
  if (!Number.isInteger(limit) || limit < min || limit > limits.maxLimit) {
    throw new ValidationError(`"limit" must be an integer from ${min} to ${limits.maxLimit}; got ${limit}`, [
      { message: `limit must be between ${min} and ${limits.maxLimit}`, path: "limit" },
    ]);
  }
  let offset = args.offset ?? 0;
  if (args.after) {
    try {
      offset = cursorToOffset(args.after) + 1;
    } catch {
      throw new ValidationError(`"after" is not a cursor this API issued`, [
        { message: "bad cursor", path: "after" },
      ]);
    }
  }
  if (!Number.isInteger(offset) || offset < 0) {
    throw new ValidationError(`"offset" must be a non-negative integer; got ${offset}`, [
      { message: "offset must be >= 0", path: "offset" },
    ]);
  }
  return { offset, limit };
}

export type Connection<T> = {
  edges: { cursor: string; node: T }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
  totalCount: number;
};

/** Wraps one page of items (fetched with `window`) and the total count as a Relay connection. */
export function toConnection<T>(items: readonly T[], window: PageWindow, totalCount: number): Connection<T> {
  const edges = items.map((node, i) => ({ cursor: offsetToCursor(window.offset + i), node }));
  return {
    edges,
    pageInfo: {
      hasNextPage: window.offset + items.length < totalCount,
      hasPreviousPage: window.offset > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount,
  };
}
