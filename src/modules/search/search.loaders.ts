import DataLoader from "dataloader";
import type { Context } from "../../context.ts";

const OPEN_CHANGE_REQUEST_STATES_EXCLUDED = ["Applied", "Cancelled", "Rejected"];
const HOUR_MS = 3_600_000;

export type EvaluationCounts = { yes: number; no: number };
type EnvKey = { featureName: string; environment: string };

function createSearchLoaders(ctx: Context) {
  return {
    /** yes/no evaluation counts of the last complete hour bucket (the hour before the current one). */
    lastHourCounts: new DataLoader<EnvKey, EvaluationCounts, string>(
      async (keys) => {
        const hour = new Date(Math.floor(ctx.now().getTime() / HOUR_MS) * HOUR_MS - HOUR_MS);
        const rows = await ctx.db.featureMetricsHourly.findMany({
          where: { hour, featureName: { in: [...new Set(keys.map((k) => k.featureName))] } },
        });
        const byKey = new Map(rows.map((r) => [`${r.featureName}\u0000${r.environmentName}`, r]));
        return keys.map((k) => {
          const row = byKey.get(`${k.featureName}\u0000${k.environment}`);
          return { yes: row?.yes ?? 0, no: row?.no ?? 0 };
        });
      },
      { cacheKeyFn: (k) => `${k.featureName}\u0000${k.environment}` },
    ),
    /** Ids of change requests still in progress (Draft included) touching the flag in the environment. */
    openChangeRequestIds: new DataLoader<EnvKey, number[], string>(
      async (keys) => {
        const changes = await ctx.db.changeRequestChange.findMany({
          where: {
            featureName: { in: [...new Set(keys.map((k) => k.featureName))] },
            changeRequest: { state: { notIn: OPEN_CHANGE_REQUEST_STATES_EXCLUDED } },
          },
          select: {
            featureName: true,
            changeRequestId: true,
            changeRequest: { select: { environmentName: true } },
          },
        });
        return keys.map((k) => [
          ...new Set(
            changes
              .filter(
                (c) => c.featureName === k.featureName && c.changeRequest.environmentName === k.environment,
              )
              .map((c) => c.changeRequestId),
          ),
        ]);
      },
      { cacheKeyFn: (k) => `${k.featureName}\u0000${k.environment}` },
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
