import { Prisma } from "../../generated/prisma/client.ts";
import { type ByEnvironment, byFeature, type FlagFact } from "../../shared/flag-facts.ts";

/** yes/no evaluation counts SDKs reported for a flag in an environment. */
export type LastHourCounts = { yes: number; no: number };
export type CountsRow = { featureName: string; environmentName: string; yes: number; no: number };

export const NO_EVALUATIONS: LastHourCounts = { yes: 0, no: 0 };

const HOUR_MS = 3_600_000;

/**
 * Where "the last hour" of flag search starts: an hour ago, as Unleash's `timestamp >= now() -
 * interval '1 hour'`. Buckets start on the hour, so this takes the current hour's bucket (what an
 * SDK just reported), and the previous one only when `now` is exactly on the hour.
 */
export const lastHourStart = (now: Date) => new Date(now.getTime() - HOUR_MS);

// A raw statement: search pages need it for 25-100 flags, and a Prisma model query costs several
// times the CPU of the statement itself. A fragment over `names` (a text[] expression), so a
// search statement can compute it for its own page and the loader for any list of flags.
export const countsSql = (since: Date, names: Prisma.Sql) => Prisma.sql`
  SELECT "featureName", "environmentName", SUM(yes)::int AS yes, SUM(no)::int AS no
  FROM "FeatureMetricsHourly"
  WHERE hour >= ${since} AND "featureName" = ANY(${names})
  GROUP BY "featureName", "environmentName"`;

export const countsOf = (r: CountsRow): LastHourCounts => ({ yes: r.yes, no: r.no });

/**
 * yes/no evaluation counts of the hour buckets that started since `since()` (asked when the
 * statement runs), per environment of a flag (a fact of the flag-facts loader).
 */
export function lastHourCountsFact(since: () => Date): FlagFact<ByEnvironment<LastHourCounts>, CountsRow> {
  return {
    sql: (names) => countsSql(since(), names),
    valuesOf: (names, rows) => byFeature(names, rows, countsOf),
  };
}
