import type { VariablesOf } from "../../lib/graphql.ts";
import type { FlagSearch } from "./queries.ts";

/**
 * The flag list's filters, order and page, kept in the URL's query string so a reload, the
 * back button and a shared link show the same list. Multi-valued filters repeat their key
 * (`project=a&project=b`), with their operator under `<key>.op` when it is not the default.
 */
export type SearchVariables = VariablesOf<typeof FlagSearch>;
type Filter = NonNullable<SearchVariables["filter"]>;

export const PAGE_SIZES = [10, 25, 50, 100];
const DEFAULT_PAGE_SIZE = 50;

export function pageSizeOf(params: URLSearchParams): number {
  const size = Number(params.get("size"));
  return PAGE_SIZES.includes(size) ? size : DEFAULT_PAGE_SIZE;
}

export const LIST_FILTERS = ["project", "type", "state", "lifecycle", "createdBy"] as const;
export const SET_FILTERS = ["tag", "segment"] as const;
export type ListFilterKey = (typeof LIST_FILTERS)[number];
export type SetFilterKey = (typeof SET_FILTERS)[number];

export const LIST_OPERATORS = { IS_ANY_OF: "is any of", IS_NONE_OF: "is none of" } as const;
export const SET_OPERATORS = {
  INCLUDE_ANY_OF: "has any of",
  INCLUDE_ALL_OF: "has all of",
  EXCLUDE_IF_ANY_OF: "has none of",
  EXCLUDE_ALL: "lacks some of",
} as const;
export type ListOperator = keyof typeof LIST_OPERATORS;
export type SetOperator = keyof typeof SET_OPERATORS;

export const SORT_FIELDS = {
  CREATED_AT: "Created",
  NAME: "Name",
  PROJECT: "Project",
  TYPE: "Type",
  STALE: "Stale",
  LAST_SEEN_AT: "Last seen",
} as const;
type SortField = keyof typeof SORT_FIELDS | "ENVIRONMENT";

export const STATES = ["active", "stale", "potentially-stale"];
export const LIFECYCLE_STAGES = ["initial", "pre-live", "live", "completed", "archived"];

/** The values of a multi-valued filter (empty: not filtered). */
export const valuesOf = (params: URLSearchParams, key: string) => params.getAll(key);

export function operatorOf<T extends string>(
  params: URLSearchParams,
  key: string,
  allowed: Record<T, string>,
): T {
  const op = params.get(`${key}.op`);
  const keys = Object.keys(allowed) as T[];
  return op && keys.includes(op as T) ? (op as T) : (keys[0] as T);
}

/** The environment statuses asked for: `status=production:enabled`. */
export function statusesOf(params: URLSearchParams): Map<string, boolean> {
  const statuses = new Map<string, boolean>();
  for (const entry of params.getAll("status")) {
    const at = entry.lastIndexOf(":");
    const state = entry.slice(at + 1);
    if (at > 0 && (state === "enabled" || state === "disabled"))
      statuses.set(entry.slice(0, at), state === "enabled");
  }
  return statuses;
}

export function sortOf(params: URLSearchParams): {
  field: SortField;
  environment: string | null;
  desc: boolean;
} {
  const sort = params.get("sort") ?? "";
  const desc = params.get("dir") === "DESC";
  if (sort.startsWith("ENVIRONMENT:")) return { field: "ENVIRONMENT", environment: sort.slice(12), desc };
  return { field: sort in SORT_FIELDS ? (sort as SortField) : "CREATED_AT", environment: null, desc };
}

/** The `featureSearch` variables the URL describes. */
export function variablesOf(params: URLSearchParams): SearchVariables {
  const filter: Filter = {};
  const query = params.get("q")?.trim();
  if (query) filter.query = query;
  for (const key of LIST_FILTERS) {
    const values = valuesOf(params, key);
    if (values.length > 0) filter[key] = { operator: operatorOf(params, key, LIST_OPERATORS), values };
  }
  const tags = valuesOf(params, "tag").flatMap((tag) => {
    const at = tag.indexOf(":");
    return at > 0 ? [{ type: tag.slice(0, at), value: tag.slice(at + 1) }] : [];
  });
  if (tags.length > 0) filter.tag = { operator: operatorOf(params, "tag", SET_OPERATORS), values: tags };
  const segments = valuesOf(params, "segment");
  if (segments.length > 0)
    filter.segment = { operator: operatorOf(params, "segment", SET_OPERATORS), values: segments };
  const created = /^(IS_BEFORE|IS_ON_OR_AFTER):(\d{4}-\d{2}-\d{2})$/.exec(params.get("created") ?? "");
  if (created) filter.createdAt = { operator: created[1] as "IS_BEFORE", date: created[2] as string };
  const statuses = [...statusesOf(params)].map(([environment, enabled]) => ({ environment, enabled }));
  if (statuses.length > 0) filter.status = statuses;
  if (params.get("archived") === "1") filter.archived = true;
  if (params.get("favorites") === "1") filter.favorite = true;

  const sort = sortOf(params);
  const before = params.get("before");
  const after = params.get("after");
  const size = pageSizeOf(params);
  return {
    filter: Object.keys(filter).length > 0 ? filter : null,
    sort: { field: sort.field, direction: sort.desc ? "DESC" : "ASC", environment: sort.environment },
    favoritesFirst: params.get("favoritesFirst") === "1",
    ...(before ? { last: size, before } : { first: size, after }),
  };
}

/**
 * A copy of `params` changed by `change`; any change but paging starts again at the first
 * page (the cursors belong to the previous filters and order).
 */
export function changed(params: URLSearchParams, change: (next: URLSearchParams) => void): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete("after");
  next.delete("before");
  change(next);
  return next;
}

export function setAll(params: URLSearchParams, key: string, values: string[]) {
  params.delete(key);
  for (const value of values) params.append(key, value);
}

export function setOrDelete(params: URLSearchParams, key: string, value: string | null | undefined | false) {
  if (value) params.set(key, value);
  else params.delete(key);
}
