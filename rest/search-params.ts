import { ValidationError } from "../src/shared/errors.ts";

/**
 * Unleash's search query strings (`OPERATOR:v1,v2`) mapped to the typed GraphQL filter inputs.
 * A value that breaks the spec's pattern is refused here with the parameter's name (the typed
 * GraphQL input cannot even represent it); what the values mean is checked by the services.
 */

const LIST = /^(IS|IS_NOT|IS_ANY_OF|IS_NONE_OF):(.*?)(,([a-zA-Z0-9_]+))*$/s;
const EQUALITY = /^(IS|IS_ANY_OF):(.*?)(,([a-zA-Z0-9_]+))*$/s;
const SET_OPERATORS = "INCLUDE|DO_NOT_INCLUDE|INCLUDE_ALL_OF|INCLUDE_ANY_OF|EXCLUDE_IF_ANY_OF|EXCLUDE_ALL";
const TAG = new RegExp(`^(${SET_OPERATORS}):([^:,]+:.+?)(,\\s*[^:,]+:.+?)*$`, "s");
const SEGMENT = new RegExp(`^(${SET_OPERATORS}):(.*?)(,([a-zA-Z0-9_]+))*$`, "s");
const DATE_FILTER = /^(IS_BEFORE|IS_ON_OR_AFTER):(\d{4}-\d{2}-\d{2})$/;
const DAY_IS = /^IS:(\d{4}-\d{2}-\d{2})$/;
const STATUS = /^(.+):(enabled|disabled)$/;
const INTEGER = /^\d+$/;

/** A query or path parameter that cannot be read: a 400 naming the parameter. */
export class BadParameter extends ValidationError {}

function bad(name: string, value: string, expected: string): BadParameter {
  return new BadParameter(`Invalid value "${value}" for the "${name}" parameter: expected ${expected}.`);
}

/** The single value of a parameter (the first if repeated), or undefined when absent. */
export function single(query: URLSearchParams, name: string): string | undefined {
  return query.get(name) ?? undefined;
}

function operatorAndValues(value: string): { operator: string; values: string[] } {
  const colon = value.indexOf(":");
  const values = value
    .slice(colon + 1)
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  return { operator: value.slice(0, colon), values };
}

/** `IS|IS_NOT|IS_ANY_OF|IS_NONE_OF:values` (or IS/IS_ANY_OF only with `equalityOnly`). */
export function listFilter(query: URLSearchParams, name: string, equalityOnly = false) {
  const value = single(query, name);
  if (value === undefined) return undefined;
  const pattern = equalityOnly ? EQUALITY : LIST;
  if (!pattern.test(value)) {
    throw bad(
      name,
      value,
      `${equalityOnly ? "IS or IS_ANY_OF" : "IS, IS_NOT, IS_ANY_OF or IS_NONE_OF"}, a colon and values`,
    );
  }
  return operatorAndValues(value);
}

/** `OPERATOR:type:value,type:value` tags, split on the first colon of each. */
export function tagFilter(query: URLSearchParams) {
  const value = single(query, "tag");
  if (value === undefined) return undefined;
  if (!TAG.test(value)) throw bad("tag", value, "a set operator, a colon and type:value tags");
  const { operator, values } = operatorAndValues(value);
  return {
    operator,
    values: values.map((tag) => {
      const colon = tag.indexOf(":");
      return { type: tag.slice(0, colon).trim(), value: tag.slice(colon + 1).trim() };
    }),
  };
}

export function segmentFilter(query: URLSearchParams) {
  const value = single(query, "segment");
  if (value === undefined) return undefined;
  if (!SEGMENT.test(value)) throw bad("segment", value, "a set operator, a colon and segment names");
  return operatorAndValues(value);
}

/** `IS_BEFORE|IS_ON_OR_AFTER:YYYY-MM-DD`. */
export function dateFilter(query: URLSearchParams, name: string) {
  const value = single(query, name);
  if (value === undefined) return undefined;
  const m = DATE_FILTER.exec(value);
  if (!m) throw bad(name, value, "IS_BEFORE or IS_ON_OR_AFTER, a colon and YYYY-MM-DD");
  return { operator: m[1], date: m[2] };
}

/** `IS:YYYY-MM-DD` (event search `from`/`to`): the day. */
export function dayIs(query: URLSearchParams, name: string): string | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  const m = DAY_IS.exec(value);
  if (!m) throw bad(name, value, "IS:YYYY-MM-DD");
  return m[1];
}

/** `status=env:enabled`, repeated or as `status[]=`; entries are ORed. */
export function statusFilter(query: URLSearchParams) {
  const entries = [...query.getAll("status"), ...query.getAll("status[]")];
  if (entries.length === 0) return undefined;
  return entries.map((entry) => {
    const m = STATUS.exec(entry);
    if (!m) throw bad("status", entry, "an environment name, a colon and enabled or disabled");
    return { environment: m[1], enabled: m[2] === "enabled" };
  });
}

export function booleanParam(query: URLSearchParams, name: string, acceptIs = false): boolean | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  const plain = acceptIs ? value.replace(/^IS:/, "") : value;
  if (plain === "true") return true;
  if (plain === "false") return false;
  throw bad(name, value, acceptIs ? "true, false, IS:true or IS:false" : "true or false");
}

/** A path parameter holding an id (an integer); anything else is a 400 naming the parameter. */
export function intParam(req: { params: Record<string, string> }, name: string): number {
  const value = req.params[name] ?? "";
  if (!/^-?\d{1,9}$/.test(value)) throw bad(name, value, "an integer");
  return Number(value);
}

export function integerParam(query: URLSearchParams, name: string): number | undefined {
  const value = single(query, name);
  if (value === undefined) return undefined;
  if (!INTEGER.test(value)) throw bad(name, value, "a non-negative integer");
  return Number(value);
}

const SORT_FIELDS: Record<string, string> = {
  name: "NAME",
  type: "TYPE",
  stale: "STALE",
  project: "PROJECT",
  createdAt: "CREATED_AT",
  lastSeenAt: "LAST_SEEN_AT",
};

/**
 * `sortBy` (name, type, stale, project, createdAt, lastSeenAt, environment:<env>; anything else:
 * createdAt) + `sortOrder`.
 */
export function featureSort(query: URLSearchParams) {
  const by = single(query, "sortBy");
  const order = single(query, "sortOrder");
  if (order !== undefined && order !== "asc" && order !== "desc")
    throw bad("sortOrder", order, "asc or desc");
  const direction = order === "desc" ? "DESC" : "ASC";
  if (by === undefined || by === "") return { field: "CREATED_AT", direction };
  if (by.startsWith("environment:") && by.length > "environment:".length) {
    return { field: "ENVIRONMENT", direction, environment: by.slice("environment:".length) };
  }
  // An unknown column falls back to the default order, as Unleash does.
  return { field: SORT_FIELDS[by] ?? "CREATED_AT", direction };
}
