import DataLoader from "dataloader";
import type { Context } from "../../context.ts";

const OPEN_CHANGE_REQUEST_STATES_EXCLUDED = ["Applied", "Cancelled", "Rejected"];
const HOUR_MS = 3_600_000;

export type EvaluationCounts = { yes: number; no: number };
type EnvKey = { featureName: string; environment: string };
type CountsRow = { featureName: string; environmentName: string; yes: number; no: number };

const keyOf = (featureName: string, environment: string) => `${featureName}\u0000${environment}`;
const featureNamesOf = (keys: readonly EnvKey[]) => [...new Set(keys.map((k) => k.featureName))];

// The loaders run raw statements: every search page asks them for 25-100 flags, and a Prisma
// model query costs several times the CPU of the statement itself.

function createSearchLoaders(ctx: Context) {
  return {
    /** yes/no evaluation counts of the last complete hour bucket (the hour before the current one). */
    lastHourCounts: new DataLoader<EnvKey, EvaluationCounts, string>(
      async (keys) => {
        const hour = new Date(Math.floor(ctx.now().getTime() / HOUR_MS) * HOUR_MS - HOUR_MS);
        const rows = await ctx.db.$queryRaw<CountsRow[]>`
          SELECT "featureName", "environmentName", yes, no FROM "FeatureMetricsHourly"
          WHERE hour = ${hour} AND "featureName" = ANY(${featureNamesOf(keys)}::text[])`;
        const byKey = new Map(rows.map((r) => [keyOf(r.featureName, r.environmentName), r]));
        return keys.map((k) => {
          const row = byKey.get(keyOf(k.featureName, k.environment));
          return { yes: row?.yes ?? 0, no: row?.no ?? 0 };
        });
      },
      { cacheKeyFn: (k) => keyOf(k.featureName, k.environment) },
    ),
    /** Ids of change requests still in progress (Draft included) touching the flag in the environment. */
    openChangeRequestIds: new DataLoader<EnvKey, number[], string>(
      async (keys) => {
        const rows = await ctx.db.$queryRaw<
          { featureName: string; environmentName: string; ids: number[] }[]
        >`
          SELECT c."featureName", cr."environmentName", array_agg(DISTINCT cr.id ORDER BY cr.id) AS ids
          FROM "ChangeRequestChange" c JOIN "ChangeRequest" cr ON cr.id = c."changeRequestId"
          WHERE c."featureName" = ANY(${featureNamesOf(keys)}::text[])
            AND cr.state <> ALL(${OPEN_CHANGE_REQUEST_STATES_EXCLUDED}::text[])
          GROUP BY c."featureName", cr."environmentName"`;
        const byKey = new Map(rows.map((r) => [keyOf(r.featureName, r.environmentName), r.ids]));
        return keys.map((k) => byKey.get(keyOf(k.featureName, k.environment)) ?? []);
      },
      { cacheKeyFn: (k) => keyOf(k.featureName, k.environment) },
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
