import { ValidationError } from "./errors.ts";

/**
 * The one pagination helper: keyset (seek) paging. A cursor is the opaque position of a row
 * in one order: the values of that order's sort keys, the last of them unique. A page starts
 * strictly after (or ends strictly before) that position, so rows inserted or deleted between
 * two requests never make a page repeat or skip a row, as an offset would.
 *
 * Connections take `first`/`after` forwards and `last`/`before` backwards (Relay); REST's
 * `offset`/`limit` arrive as `offset`/`first` and still skip rows (Unleash's contract).
 */
export type PageArgs = {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
  offset?: number | null;
};
export type PageLimits = { defaultLimit: number; maxLimit: number; minLimit?: number };

/** One value of a position: JSON-safe (dates travel as ISO strings, big ids as strings). */
export type KeyValue = string | number | boolean | null;
export type Key = readonly KeyValue[];

/** An order of a listing: `name` tells its cursors from another order's; `size` key values. */
export type Ordering = { name: string; size: number };

export type PageRequest = {
  limit: number;
  /** Rows to skip first (REST's `offset`; 0 with cursors). */
  offset: number;
  /** Read from the end of the order (`last`/`before`); the rows are reversed back after. */
  backward: boolean;
  /** Where reading starts (exclusive), in reading direction: `after`, or `before` backwards. */
  from: Key | null;
  /** The other cursor, which ends reading (exclusive) when both are given. */
  until: Key | null;
  ordering: Ordering;
};

export function pageRequest(args: PageArgs, limits: PageLimits, ordering: Ordering): PageRequest {
  const backward = args.last != null || (args.before != null && args.first == null);
  if (args.first != null && args.last != null) throw invalid("first", `give "first" or "last", not both`);
  if (args.offset != null && (args.after || args.before || args.last != null)) {
    throw invalid("offset", `"offset" cannot be combined with "after", "before" or "last"`);
  }
  const limit = (backward ? args.last : args.first) ?? limits.defaultLimit;
  const min = limits.minLimit ?? 0;
  if (!Number.isInteger(limit) || limit < min || limit > limits.maxLimit) {
    throw new ValidationError(`"limit" must be an integer from ${min} to ${limits.maxLimit}; got ${limit}`, [
      { message: `limit must be between ${min} and ${limits.maxLimit}`, path: "limit" },
    ]);
  }
  const offset = args.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) {
    throw invalid("offset", `"offset" must be a non-negative integer; got ${offset}`);
  }
  const after = args.after ? decodeCursor(args.after, ordering, "after") : null;
  const before = args.before ? decodeCursor(args.before, ordering, "before") : null;
  return {
    limit,
    offset,
    backward,
    from: backward ? before : after,
    until: backward ? after : before,
    ordering,
  };
}

/** How many rows to read: one more than the page, to know whether another page follows. */
export const rowsToRead = (request: PageRequest) => request.limit + 1;

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

/**
 * The connection of `rows`, read in reading direction (`rowsToRead` of them at most), with
 * the total count. `keyOf` gives a row's position in the request's order.
 */
export function toConnection<T>(
  rows: readonly T[],
  request: PageRequest,
  totalCount: number,
  keyOf: (row: T) => Key,
): Connection<T> {
  const more = rows.length > request.limit;
  const page = rows.slice(0, request.limit);
  if (request.backward) page.reverse();
  const edges = page.map((node) => ({ cursor: encodeCursor(keyOf(node), request.ordering), node }));
  const started = request.from !== null || request.offset > 0;
  return {
    edges,
    pageInfo: {
      hasNextPage: request.backward ? started || request.until !== null : more || request.until !== null,
      hasPreviousPage: request.backward ? more : started,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount,
  };
}

/** A sort key of an order, as the database sorts it (`nullable`: it may be NULL). */
export type SortKey = { descending: boolean; nullable?: boolean; nullsLast?: boolean };

/**
 * One comparison of a seek condition on key `index`: equal to, or strictly beyond its value
 * in reading direction (`beyond`; `orNull` when NULLs sort after every value).
 */
export type SeekTest =
  | { index: number; test: "equals"; value: KeyValue }
  | { index: number; test: "greater" | "less"; value: KeyValue; orNull: boolean }
  | { index: number; test: "notNull" };

/**
 * "Strictly beyond `key` in reading direction" as an OR of ANDs of key tests, for any mix of
 * directions and NULL placements: (k0 beyond) OR (k0 = v0 AND k1 beyond) OR ...
 * Each listing renders it in its query language (Prisma `where`, SQL).
 */
export function seekCondition(keys: readonly SortKey[], key: Key, backward: boolean): SeekTest[][] {
  const terms: SeekTest[][] = [];
  keys.forEach((sortKey, i) => {
    const prefix: SeekTest[] = keys
      .slice(0, i)
      .map((_k, j) => ({ index: j, test: "equals", value: key[j] ?? null }));
    const descending = sortKey.descending !== backward;
    // PostgreSQL puts NULLs last ascending and first descending unless told otherwise
    const nullsLast = (sortKey.nullsLast ?? !sortKey.descending) !== backward;
    const value = key[i] ?? null;
    if (value === null) {
      if (!nullsLast) terms.push([...prefix, { index: i, test: "notNull" }]);
      return;
    }
    const orNull = nullsLast && sortKey.nullable === true;
    terms.push([...prefix, { index: i, test: descending ? "less" : "greater", value, orNull }]);
  });
  return terms;
}

/** The conditions a read applies: beyond `from`, and (both cursors given) before `until`. */
export function seekConditions(keys: readonly SortKey[], request: PageRequest): SeekTest[][][] {
  const conditions: SeekTest[][][] = [];
  if (request.from) conditions.push(seekCondition(keys, request.from, request.backward));
  if (request.until) conditions.push(seekCondition(keys, request.until, !request.backward));
  return conditions;
}

function encodeCursor(key: Key, ordering: Ordering): string {
  return Buffer.from(JSON.stringify([ordering.name, ...key])).toString("base64url");
}

function decodeCursor(cursor: string, ordering: Ordering, path: string): Key {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    parts = null;
  }
  const valid =
    Array.isArray(parts) &&
    parts.length === ordering.size + 1 &&
    parts[0] === ordering.name &&
    parts.every((p) => p === null || ["string", "number", "boolean"].includes(typeof p));
  if (!valid) throw invalid(path, `"${path}" is not a cursor of this list in this order`);
  return (parts as KeyValue[]).slice(1);
}

function invalid(path: string, message: string): ValidationError {
  return new ValidationError(message, [{ message, path }]);
}

/** A sort key of a Prisma listing: a scalar column of the model. */
export type ColumnKey = SortKey & { field: string };

/**
 * The arguments of a Prisma `findMany` that reads the request's rows (`where` to AND with the
 * listing's own filter): ordered, past the cursor, `rowsToRead` of them.
 */
export function prismaPage(request: PageRequest, keys: readonly ColumnKey[]) {
  const beyond = seekConditions(keys, request).map((terms) => ({
    OR: terms.map((tests) => ({ AND: tests.map((test) => prismaTest(keys[test.index]?.field ?? "", test)) })),
  }));
  return {
    where: { AND: beyond },
    orderBy: keys.map((k) => ({ [k.field]: k.descending !== request.backward ? "desc" : "asc" }) as const),
    skip: request.offset,
    take: rowsToRead(request),
  };
}

function prismaTest(field: string, test: SeekTest): Record<string, unknown> {
  if (test.test === "equals") return { [field]: test.value };
  if (test.test === "notNull") return { [field]: { not: null } };
  const beyond = { [field]: { [test.test === "greater" ? "gt" : "lt"]: test.value } };
  return test.orNull ? { OR: [beyond, { [field]: null }] } : beyond;
}

/** `first`/`offset` of a plain list (no cursors, e.g. REST's `limit`/`offset`): rows to skip and take. */
export function listWindow(args: Pick<PageArgs, "first" | "offset">, limits: PageLimits) {
  const request = pageRequest(args, limits, { name: "list", size: 0 });
  return { skip: request.offset, take: request.limit };
}

/** A connection's nodes and total as an operation answered them (for REST's page envelopes). */
export function nodesOf<T>(connection: { totalCount: number; edges: readonly { node: T }[] }): {
  nodes: T[];
  totalCount: number;
} {
  return { nodes: connection.edges.map((e) => e.node), totalCount: connection.totalCount };
}
