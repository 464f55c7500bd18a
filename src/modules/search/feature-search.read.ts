import type { Db } from "../../db/database.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { ValidationError } from "../../shared/errors.ts";
import { type Key, type Ordering, type PageRequest, rowsToRead } from "../../shared/pagination.ts";
import { sqlOf } from "../../shared/sql.ts";
import {
  and,
  containsPattern,
  enabledIn,
  favoriteOf,
  LAST_SEEN,
  listCondition,
  or,
  orderOf,
  type Sql,
  type SqlSortKey,
  seekSql,
  segmentMatch,
  setCondition,
  sql,
  tagMatch,
} from "./feature-search-sql.logic.ts";
import type { FeatureSearchFilter, FeatureSearchSort, ListOperator } from "./search-filters.schema.ts";

export type FeatureSearchArgs = {
  filter?: FeatureSearchFilter | null;
  sort?: FeatureSearchSort | null;
  favoritesFirst?: boolean | null;
  /** Whose favourites rank first: the acting user (the shared admin-token user for API tokens); null: nobody's. */
  userId: number | null;
};

/** One page: its flags' positions in the order (the name last) and the page's details. */
export type SearchPage = { keys: Key[]; total: number; details: unknown };

/** More columns for the page, computed in the same statement from `names` (the page's text[]). */
export type PageDetailsOf = (names: Sql) => Sql;

const STATES = ["active", "stale", "potentially-stale"];
const ACTIVE_STAGES = ["initial", "pre-live", "live", "completed"];
const STAGES = [...ACTIVE_STAGES, "archived"];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Flag search (spec 4.2): the names of one page of matching flags, in order, and the number
 * of all matches, in one statement. Filters only decide which flags match; every EXISTS/scalar
 * subquery is per flag, so pages are cut on distinct flags and never skip or repeat one.
 */
export async function searchFeatures(
  db: Db,
  args: FeatureSearchArgs,
  request: PageRequest,
  detailsOf: PageDetailsOf,
): Promise<SearchPage> {
  const [row] = await sqlOf(db).query<{ keys: Key[]; total: bigint; details: unknown }>(
    featureSearchStatement(args, request, detailsOf),
  );
  return { keys: row?.keys ?? [], total: Number(row?.total ?? 0), details: row?.details ?? null };
}

/** The order a search pages in (its cursors are valid only in that order). */
export function searchOrdering(args: FeatureSearchArgs): Ordering {
  const sort = args.sort ?? { field: "CREATED_AT" as const };
  const favorites = Boolean(args.favoritesFirst && args.userId !== null);
  const name = JSON.stringify([sort.field, sort.direction ?? "ASC", sort.environment ?? null, favorites]);
  return { name, size: sortKeysOf(args).length };
}

/** The whole statement: page, total and the page's details (exported for the benchmark's EXPLAIN). */
export function featureSearchStatement(
  args: FeatureSearchArgs,
  request: PageRequest,
  detailsOf: PageDetailsOf,
): Sql {
  // MATERIALIZED: the page is read once (a plain subquery is pulled up, and each use of its
  // keys would run the page's read again), and the details read the page's names several times.
  return sql`WITH p AS MATERIALIZED (${featureSearchQuery(args, request)}),
    s AS MATERIALIZED (SELECT p.keys, p.total,
      ARRAY(SELECT k ->> -1 FROM unnest(p.keys) WITH ORDINALITY u(k, i) ORDER BY i) AS names FROM p)
    SELECT s.keys, s.total, ${detailsOf(sql`s.names`)} AS details FROM s`;
}

/**
 * The page and the total. The count and
 * the page are separate subqueries so each gets its own plan: the page can walk an index in
 * sort order and stop after `offset + limit` rows instead of sorting every match. Filters that
 * cost a lookup per flag (text, tags, segments) are evaluated once, into a materialised set
 * both subqueries read. Status stays a plain semi-join: one indexed table, which the total
 * hashes and the page's walk checks for a few rows (6 ms against 7.7 ms materialised).
 */
function featureSearchQuery(args: FeatureSearchArgs, request: PageRequest): Sql {
  const filter = args.filter ?? {};
  const where = whereOf(filter, args.userId);
  if (!(filter.query?.trim() || filter.tag || filter.segment)) {
    return sql`SELECT (SELECT count(*) FROM "Feature" f WHERE ${where}) AS total,
      ARRAY(${pageOf(args, where, request)}) AS keys`;
  }
  // The matches carry every column a sort key or the favourite test reads (sortKeysOf,
  // favoriteOf), so the page sorts them alone instead of joining them to the flags again.
  return sql`WITH matches AS MATERIALIZED (SELECT ${MATCH_COLUMNS} FROM "Feature" f WHERE ${where})
    SELECT (SELECT count(*) FROM matches) AS total,
      ARRAY(${pageOf(args, sql`TRUE`, request, sql`matches`)}) AS keys`;
}

const FLAGS = sql`"Feature"`;
const MATCH_COLUMNS = sql`f.name, f."createdAt", f."lastSeenAt", f.type, f.stale, f."projectId"`;

/**
 * The positions (sort key values, the name last, as a JSON array) of one page's flags, past
 * the request's cursor. Favourites first is a UNION of the caller's first matching favourites
 * and the first other matches, each cut at the page, so the ranking never sorts all matches.
 * `flags` is where the candidates come from: the flags, or the materialised matches.
 */
function pageOf(args: FeatureSearchArgs, where: Sql, request: PageRequest, flags = FLAGS): Sql {
  const keys = sortKeysOf(args);
  const page = sql`LIMIT ${rowsToRead(request)} OFFSET ${request.offset}`;
  const candidates = sql`${where} AND ${seekSql(keys, request)}`;
  if (!args.favoritesFirst || args.userId === null) {
    return sql`SELECT ${positionOf(keys)} FROM ${flags} f WHERE ${candidates}
      ORDER BY ${orderOf(keys, request)} ${page}`;
  }
  // Within each branch the rank (the first key) is a constant: spelled as one, the planner drops
  // it from the order and the seek, so the other flags are read in an index's order and the
  // read stops after the page, instead of ranking and sorting every flag (40 ms on 10,000).
  const ranked = (rank: boolean) =>
    keys.map((k, i) =>
      i === 0 ? { ...k, expression: Prisma.raw(rank ? "TRUE::boolean" : "FALSE::boolean") } : k,
    );
  const [favorites, others] = [ranked(false), ranked(true)];
  const columns = (of: SqlSortKey[]) =>
    Prisma.join(of.map((k, i) => sql`${k.expression} AS ${Prisma.raw(`k${i}`)}`));
  const outer = keys.map((k, i) => ({ ...k, expression: Prisma.raw(`k.k${i}`) }));
  const favorite = favoriteOf(args.userId);
  const read = sql`LIMIT ${request.offset + rowsToRead(request)}`;
  return sql`SELECT ${positionOf(outer)} FROM (
      (SELECT ${columns(favorites)} FROM ${flags} f WHERE ${where} AND ${seekSql(favorites, request)}
        AND ${favoritesAmong(flags, args.userId)} ORDER BY ${orderOf(favorites, request)} ${read})
      UNION ALL
      (SELECT ${columns(others)} FROM ${flags} f WHERE ${where} AND ${seekSql(others, request)} AND NOT ${favorite}
        ORDER BY ${orderOf(others, request)} ${read})
    ) k ORDER BY ${orderOf(outer, request)} ${page}`;
}

/**
 * The caller's favourites among `flags`. On the flags table they are looked up by name from
 * the caller's list (an index probe each), where a semi-join is planned as a hash of every
 * flag once favourites are more than a few dozen (1.7 ms of a 7 ms page with 161 of 10,000).
 * On the materialised matches (no index) the semi-join hashes the favourites instead.
 */
function favoritesAmong(flags: Sql, userId: number): Sql {
  if (flags !== FLAGS) return favoriteOf(userId);
  return sql`f.name = ANY(ARRAY(SELECT ff."featureName" FROM "FavoriteFeature" ff WHERE ff."userId" = ${userId}))`;
}

const positionOf = (keys: SqlSortKey[]) =>
  sql`json_build_array(${Prisma.join(keys.map((k) => k.expression))})`;

function whereOf(filter: FeatureSearchFilter, userId: number | null): Sql {
  const parts: Sql[] = [archivedScope(filter)];
  if (typeof filter.favorite === "boolean") parts.push(favoriteCondition(filter.favorite, userId));
  const terms = (filter.query ?? "")
    .split(",")
    .map((term) => term.trim())
    .filter(Boolean);
  if (terms.length > 0) parts.push(textMatch(terms.map(containsPattern)));
  if (filter.project) parts.push(listCondition(sql`f."projectId"`, ...textList(filter.project)));
  if (filter.type) parts.push(listCondition(sql`f.type`, ...textList(filter.type)));
  if (filter.createdBy) parts.push(createdByCondition(filter.createdBy));
  if (filter.state)
    parts.push(stateCondition(filter.state.operator, checked("state", filter.state.values, STATES)));
  if (filter.lifecycle) {
    parts.push(
      lifecycleCondition(filter.lifecycle.operator, checked("lifecycle", filter.lifecycle.values, STAGES)),
    );
  }
  if (filter.tag) {
    const tags = [...new Map(filter.tag.values.map((t) => [`${t.type}:${t.value}`, t])).values()];
    parts.push(setCondition(filter.tag.operator, tagMatch(tags), tags.length));
  }
  if (filter.segment) {
    const names = [...new Set(filter.segment.values)];
    parts.push(setCondition(filter.segment.operator, segmentMatch(names), names.length));
  }
  if (filter.status) parts.push(statusCondition(filter.status));
  if (filter.createdAt) {
    const day = dayStart("createdAt", filter.createdAt.date);
    parts.push(
      filter.createdAt.operator === "IS_BEFORE" ? sql`f."createdAt" < ${day}` : sql`f."createdAt" >= ${day}`,
    );
  }
  return and(parts);
}

/** The caller's favourites (true) or the others (false); a caller with no user has none. */
function favoriteCondition(favorite: boolean, userId: number | null): Sql {
  if (userId === null) return favorite ? sql`FALSE` : sql`TRUE`;
  return favorite ? favoriteOf(userId) : sql`NOT ${favoriteOf(userId)}`;
}

/** `archived` decides when given; otherwise active flags only, unless `lifecycle` includes archived. */
function archivedScope(filter: FeatureSearchFilter): Sql {
  if (filter.archived === true) return sql`f."archivedAt" IS NOT NULL`;
  if (filter.archived === false) return sql`f."archivedAt" IS NULL`;
  const lifecycle = filter.lifecycle;
  const includesArchived =
    lifecycle && isPositive(lifecycle.operator) && lifecycle.values.some((v) => v.trim() === "archived");
  return includesArchived ? sql`TRUE` : sql`f."archivedAt" IS NULL`;
}

/**
 * The flags matching any pattern in the name, the description or a tag value: one ILIKE per
 * column in a UNION, so each is answered by its own trigram index (an OR of the three makes
 * PostgreSQL test every flag: 12 ms against 3 ms for a selective term on 10,000 flags).
 */
function textMatch(patterns: string[]): Sql {
  const any = sql`ANY(${patterns}::text[])`;
  return sql`f.name IN (
    SELECT x.name FROM "Feature" x WHERE x.name ILIKE ${any}
    UNION SELECT x.name FROM "Feature" x WHERE x.description ILIKE ${any}
    UNION SELECT t."featureName" FROM "FeatureTag" t WHERE t."tagValue" ILIKE ${any})`;
}

function textList(filter: { operator: ListOperator; values: string[] }): [ListOperator, Sql] {
  return [filter.operator, sql`${filter.values.map((v) => v.trim())}::text[]`];
}

function createdByCondition(filter: { operator: ListOperator; values: string[] }): Sql {
  const ids = filter.values.map((v) => v.trim());
  const bad = ids.find((id) => !/^-?\d+$/.test(id));
  if (bad !== undefined) throw invalid("createdBy", `createdBy values are user ids (integers); got "${bad}"`);
  return listCondition(sql`f."createdByUserId"`, filter.operator, sql`${ids.map(Number)}::int[]`);
}

function isPositive(operator: ListOperator): boolean {
  return operator === "IS" || operator === "IS_ANY_OF";
}

/** active ⇒ not stale; stale ⇒ stale; potentially-stale ⇒ not stale but past its lifetime. */
function stateCondition(operator: ListOperator, values: string[]): Sql {
  const byState: Record<string, Sql> = {
    active: sql`NOT f.stale`,
    stale: sql`f.stale`,
    "potentially-stale": sql`(NOT f.stale AND f."potentiallyStale")`,
  };
  const any = or(values.map((v) => byState[v] as Sql));
  return isPositive(operator) ? any : sql`NOT ${any}`;
}

/** archived ⇒ the flag is archived; other stages compare with the current stage of active flags. */
function lifecycleCondition(operator: ListOperator, values: string[]): Sql {
  const active = values.filter((v) => v !== "archived");
  // lifecycleStage is kept by a trigger (migration lifecycle_stage); NULL (no stage) matches no stage
  const current = sql`COALESCE(f."lifecycleStage" = ANY(${active}::text[]), FALSE)`;
  const parts = [sql`(f."archivedAt" IS NULL AND ${current})`];
  if (values.includes("archived")) parts.push(sql`f."archivedAt" IS NOT NULL`);
  const any = or(parts);
  return isPositive(operator) ? any : sql`NOT ${any}`;
}

function statusCondition(entries: { environment: string; enabled: boolean }[]): Sql {
  const each = entries.map(
    (s) => sql`(fe."environmentName" = ${s.environment} AND fe.enabled = ${s.enabled})`,
  );
  return sql`EXISTS (SELECT 1 FROM "FeatureEnvironment" fe WHERE fe."featureName" = f.name AND ${or(each)})`;
}

const TIMESTAMP = sql`timestamp(3)`;
const TEXT = sql`text`;
const BOOLEAN = sql`boolean`;

/**
 * The sort keys, the last being the unique name, so every order is total and pages are stable
 * (favourites first adds the rank first: false for a favourite).
 */
function sortKeysOf(args: FeatureSearchArgs): SqlSortKey[] {
  const sort = args.sort ?? { field: "CREATED_AT" as const };
  const descending = sort.direction === "DESC";
  const createdAtAsc = { expression: sql`f."createdAt"`, type: TIMESTAMP, descending: false };
  const keys: SqlSortKey[] = [];
  if (args.favoritesFirst && args.userId !== null) {
    keys.push({ expression: sql`(NOT ${favoriteOf(args.userId)})`, type: BOOLEAN, descending: false });
  }
  switch (sort.field) {
    case "CREATED_AT":
      keys.push({ ...createdAtAsc, descending });
      break;
    case "LAST_SEEN_AT":
      keys.push(
        { expression: LAST_SEEN, type: TIMESTAMP, descending, nullable: true, nullsLast: true },
        createdAtAsc,
      );
      break;
    case "ENVIRONMENT": {
      if (!sort.environment) throw invalid("sortBy", "sorting by environment needs the environment name");
      const enabled = enabledIn(sort.environment);
      keys.push(
        { expression: enabled, type: BOOLEAN, descending, nullable: true, nullsLast: true },
        createdAtAsc,
      );
      break;
    }
    default: {
      const [expression, type] = {
        NAME: [sql`f.name`, TEXT],
        TYPE: [sql`f.type`, TEXT],
        STALE: [sql`f.stale`, BOOLEAN],
        PROJECT: [sql`f."projectId"`, TEXT],
      }[sort.field] as [Sql, Sql];
      keys.push({ expression, type, descending }, createdAtAsc);
    }
  }
  keys.push({ expression: sql`f.name`, type: TEXT, descending: false });
  return keys;
}

function checked(field: string, values: string[], allowed: string[]): string[] {
  const trimmed = values.map((v) => v.trim());
  const bad = trimmed.find((v) => !allowed.includes(v));
  if (bad !== undefined) throw invalid(field, `${field} must be one of ${allowed.join(", ")}; got "${bad}"`);
  return trimmed;
}

/** Midnight UTC of a YYYY-MM-DD day; anything else is a ValidationError naming `field`. */
export function dayStart(field: string, day: string): Date {
  const date = new Date(`${day}T00:00:00.000Z`);
  if (!DAY.test(day) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) {
    throw invalid(field, `${field} needs a real day as YYYY-MM-DD; got "${day}"`);
  }
  return date;
}

export function invalid(path: string, message: string): ValidationError {
  return new ValidationError(message, [{ path, message }]);
}
