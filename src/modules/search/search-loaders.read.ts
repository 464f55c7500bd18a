import DataLoader from "dataloader";
import type { Context } from "../../context.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { favoriteFeaturesSql } from "../../loaders.ts";
import { actorOf } from "../../shared/actor.ts";

const OPEN_CHANGE_REQUEST_STATES_EXCLUDED = ["Applied", "Cancelled", "Rejected"];
const HOUR_MS = 3_600_000;

export type EvaluationCounts = { yes: number; no: number };
type CountsRow = { featureName: string; environmentName: string; yes: number; no: number };
type ChangeRequestsRow = { featureName: string; environmentName: string; ids: number[] };
/** Per flag: a value per environment name. */
type ByEnvironment<T> = Map<string, T>;

// Raw statements: every search page needs these for 25-100 flags, and a Prisma model query
// costs several times the CPU of the statement itself. Each is a fragment over `names` (a
// text[] expression), so the search statement can compute them for its own page (see
// `pageExtrasSql`) and a loader for any list of flags.

/** The last complete hour bucket (the hour before the current one). */
const lastCompleteHour = (ctx: Context) =>
  new Date(Math.floor(ctx.now().getTime() / HOUR_MS) * HOUR_MS - HOUR_MS);

const countsSql = (ctx: Context, names: Prisma.Sql) => Prisma.sql`
  SELECT "featureName", "environmentName", yes, no FROM "FeatureMetricsHourly"
  WHERE hour = ${lastCompleteHour(ctx)} AND "featureName" = ANY(${names})`;

const openChangeRequestsSql = (names: Prisma.Sql) => Prisma.sql`
  SELECT c."featureName", cr."environmentName", array_agg(DISTINCT cr.id ORDER BY cr.id) AS ids
  FROM "ChangeRequestChange" c JOIN "ChangeRequest" cr ON cr.id = c."changeRequestId"
  WHERE c."featureName" = ANY(${names}) AND cr.state <> ALL(${OPEN_CHANGE_REQUEST_STATES_EXCLUDED}::text[])
  GROUP BY c."featureName", cr."environmentName"`;

/** Rows per flag of `names` (in its order), then per environment. */
export function byFeature<R extends { featureName: string; environmentName: string }, T>(
  names: readonly string[],
  rows: R[],
  value: (row: R) => T,
): ByEnvironment<T>[] {
  const maps = new Map(names.map((n) => [n, new Map<string, T>()]));
  for (const row of rows) maps.get(row.featureName)?.set(row.environmentName, value(row));
  return names.map((n) => maps.get(n) as ByEnvironment<T>);
}

export const NO_EVALUATIONS: EvaluationCounts = { yes: 0, no: 0 };
export const countsOf = (r: CountsRow): EvaluationCounts => ({ yes: r.yes, no: r.no });
export const idsOf = (r: ChangeRequestsRow) => r.ids;
const boundNames = (names: readonly string[]) => Prisma.sql`${[...names]}::text[]`;

function createSearchLoaders(ctx: Context) {
  return {
    /** yes/no evaluation counts of the last complete hour bucket, per environment of a flag. */
    lastHourCounts: new DataLoader<string, ByEnvironment<EvaluationCounts>>(async (names) =>
      byFeature(names, await ctx.db.$queryRaw<CountsRow[]>(countsSql(ctx, boundNames(names))), countsOf),
    ),
    /** Ids of change requests still in progress (Draft included) touching a flag, per environment. */
    openChangeRequestIds: new DataLoader<string, ByEnvironment<number[]>>(async (names) =>
      byFeature(
        names,
        await ctx.db.$queryRaw<ChangeRequestsRow[]>(openChangeRequestsSql(boundNames(names))),
        idsOf,
      ),
    ),
  };
}

const perRequest = new WeakMap<object, ReturnType<typeof createSearchLoaders>>();

/** The search loaders of this request (keyed on `ctx.loaders`, created fresh per request and per subscription event). */
export function searchLoaders(ctx: Context) {
  let loaders = perRequest.get(ctx.loaders);
  if (!loaders) {
    loaders = createSearchLoaders(ctx);
    perRequest.set(ctx.loaders, loaders);
  }
  return loaders;
}

export type PageExtras = { favorites: string[]; counts: CountsRow[]; changeRequests: ChangeRequestsRow[] };

/**
 * What a page of flags shows besides its rows (the caller's favourites, last hour's counts,
 * open change requests), as one JSON value over `names`: the search statement selects it for
 * its own page, saving three round trips (see feature-search-items.read.ts).
 */
export function pageExtrasSql(ctx: Context, names: Prisma.Sql): Prisma.Sql {
  const rows = (query: Prisma.Sql) =>
    Prisma.sql`(SELECT COALESCE(json_agg(x), '[]'::json) FROM (${query}) x)`;
  return Prisma.sql`json_build_object(
    'favorites', (SELECT COALESCE(json_agg(x."featureName"), '[]'::json)
                  FROM (${favoriteFeaturesSql(actorOf(ctx.principal).userId, names)}) x),
    'counts', ${rows(countsSql(ctx, names))},
    'changeRequests', ${rows(openChangeRequestsSql(names))})`;
}
