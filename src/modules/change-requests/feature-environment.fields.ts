import DataLoader from "dataloader";
import { builder } from "../../builder.ts";
import type { Context } from "../../context.ts";
import { OPEN_STATES } from "./store.ts";

type Key = { feature: string; environment: string };

/** One query per request for every flag environment asked about (request-scoped cache). */
const loaders = new WeakMap<Context, DataLoader<Key, number[], string>>();

function openRequestIds(ctx: Context) {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader<Key, number[], string>(
      async (keys) => {
        const rows = await ctx.db.changeRequestChange.findMany({
          where: {
            featureName: { in: [...new Set(keys.map((k) => k.feature))] },
            changeRequest: {
              state: { in: [...OPEN_STATES] },
              environmentName: { in: [...new Set(keys.map((k) => k.environment))] },
            },
          },
          select: { featureName: true, changeRequest: { select: { id: true, environmentName: true } } },
        });
        return keys.map((k) => [
          ...new Set(
            rows
              .filter((r) => r.featureName === k.feature && r.changeRequest.environmentName === k.environment)
              .map((r) => r.changeRequest.id)
              .sort((a, b) => a - b),
          ),
        ]);
      },
      { cacheKeyFn: (k) => `${k.feature}\u0000${k.environment}` },
    );
    loaders.set(ctx, loader);
  }
  return loader;
}

builder.prismaObjectField("FeatureEnvironment", "changeRequestIds", (t) =>
  t.field({
    type: ["Int"],
    description:
      "Ids of open change requests (Draft, In review, Approved, Scheduled) that change this flag here.",
    select: { featureName: true, environmentName: true },
    resolve: (fe, _args, ctx) =>
      openRequestIds(ctx).load({ feature: fe.featureName, environment: fe.environmentName }),
  }),
);
