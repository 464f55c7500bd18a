import { Prisma } from "../../generated/prisma/client.ts";
import { type Sql, sql } from "../search/feature-search-sql.logic.ts";
import type { EventSearchFilter } from "./event-search.read.ts";

/**
 * Exact event totals without counting every matching row.
 *
 * `EventCount` holds the number of events per (dimension, value) among the events with an id up
 * to `EventCountCursor.throughId`; the rollup only ever moves `throughId` to an id below which
 * no transaction can still commit (the committed horizon, src/events/horizon.ts), so no event
 * committed late is ever left out. Event search adds the rolled-up count to a live count of the
 * events above `throughId` (a short range of the `(column, id)` indexes), both read by one
 * statement, i.e. from one snapshot. Events are never updated or deleted, so a rolled-up count
 * never goes stale.
 */

/** The event columns a single-dimension filter narrows by, as rolled up. */
export const DIMENSIONS = {
  feature: sql`e."featureName"`,
  project: sql`e.project`,
  type: sql`e.type`,
  environment: sql`e.environment`,
  createdBy: sql`e."createdByUserId"::text`,
} as const;
type Dimension = keyof typeof DIMENSIONS;
const DIMENSION_NAMES = Object.keys(DIMENSIONS) as Dimension[];

/**
 * Pairs of dimensions rolled up too, so two-filter totals (project and type, the commonest)
 * are as cheap as one: every pair but flag × creator, whose distinct combinations would be
 * about as many as the events. A pair's value is both values joined by U+001F (no flag,
 * project, type, environment or user id holds it); an event missing either value is in no pair.
 * Named `a+b` in DIMENSION_NAMES order. Adding a pair needs a migration that empties
 * `EventCount` and resets the cursor (as `event_count_pairs` does), or older events go uncounted.
 */
const PAIRS = DIMENSION_NAMES.flatMap((a, i) =>
  DIMENSION_NAMES.slice(i + 1)
    .filter((b) => !(a === "feature" && b === "createdBy"))
    .map((b) => [a, b] as const),
);
const pairName = (a: Dimension, b: Dimension) => `${a}+${b}`;
const PAIR_SEPARATOR = "\u001f";

/** The VALUES rows of the pairs: `a || U+001F || b` is NULL when either is. */
export const PAIR_VALUES = Prisma.join(
  PAIRS.map(([a, b]) => sql`(${pairName(a, b)}, ${DIMENSIONS[a]} || chr(31) || ${DIMENSIONS[b]})`),
);

/** The id up to which `EventCount` is exact (0 before the first rollup). */
export const ROLLED_UP_THROUGH = sql`coalesce((SELECT c."throughId" FROM "EventCountCursor" c WHERE c.id = 1), 0)`;

/**
 * The events not rolled up yet (alias `e`). The upper bound is always true; written as a
 * sub-select it makes the planner see a bounded id range (a few thousand rows) instead of a
 * third of the log, which it would otherwise count with parallel workers (~7–14 ms of start-up
 * for an empty range).
 */
export const NEWER_THAN_ROLLUP = sql`e.id > ${ROLLED_UP_THROUGH} AND e.id <= (SELECT 9223372036854775807::bigint)`;

/**
 * The rolled-up count of the events with id <= ROLLED_UP_THROUGH that match `filter`, or null
 * when the filter has no rollup: free text, `maxId`, `until`, a day range with another filter, three
 * dimensions, or flag and creator together.
 */
export function rolledUpCount(filter: EventSearchFilter): Sql | null {
  if (filter.query?.trim() || (filter.maxId !== undefined && filter.maxId !== null) || filter.until)
    return null;
  const given = DIMENSION_NAMES.filter((d) => filter[d]);
  const days = Boolean(filter.from || filter.to);
  if (given.length + (days ? 1 : 0) > 2 || (days && given.length > 0)) return null;
  const sum = (where: Sql) => sql`(SELECT coalesce(sum(c.count), 0) FROM "EventCount" c WHERE ${where})`;
  // Distinct values: an event has one value per dimension, so the counts of distinct values add up.
  const valuesOf = (d: Dimension) => {
    const values = filter[d]?.values ?? [];
    return [...new Set(d === "createdBy" ? values.map((v) => String(Number(v))) : values)];
  };
  const [dimension, other] = given;
  if (filter.withProject && !filter.project) return withProjectCount(dimension, other, days, sum, valuesOf);
  if (dimension && other) {
    if (!PAIRS.some(([a, b]) => a === dimension && b === other)) return null;
    const keys = valuesOf(dimension).flatMap((a) => valuesOf(other).map((b) => `${a}${PAIR_SEPARATOR}${b}`));
    return sum(sql`c.dimension = ${pairName(dimension, other)} AND c.value = ANY(${keys}::text[])`);
  }
  if (dimension) {
    return sum(sql`c.dimension = ${dimension} AND c.value = ANY(${valuesOf(dimension)}::text[])`);
  }
  if (days) {
    const from = filter.from ? sql`c.value >= ${filter.from}` : sql`TRUE`;
    const to = filter.to ? sql`c.value <= ${filter.to}` : sql`TRUE`;
    return sum(sql`c.dimension = 'day' AND ${from} AND ${to}`);
  }
  return sum(sql`c.dimension = 'all' AND c.value = ''`);
}

/**
 * The rolled-up count of the events that have a project (`withProject`, the visibility of
 * non-admins) and match at most one more dimension: rollups count only non-null values, so
 * the `project` rows add up to the events with a project, and a pair with `project` to those
 * with a project and the other value (matched on its half of the pair value). Null otherwise.
 */
function withProjectCount(
  dimension: Dimension | undefined,
  other: Dimension | undefined,
  days: boolean,
  sum: (where: Sql) => Sql,
  valuesOf: (d: Dimension) => string[],
): Sql | null {
  if (other || days) return null;
  if (!dimension) return sum(sql`c.dimension = 'project'`);
  const [a, b] =
    dimension === "feature" ? (["feature", "project"] as const) : (["project", dimension] as const);
  if (!PAIRS.some(([x, y]) => x === a && y === b)) return null;
  const part = dimension === "feature" ? 1 : 2;
  return sum(
    sql`c.dimension = ${pairName(a, b)} AND split_part(c.value, chr(31), ${part}::int) = ANY(${valuesOf(dimension)}::text[])`,
  );
}
