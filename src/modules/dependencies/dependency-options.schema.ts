import { builder } from "../../builder.ts";
import { environmentVariantsOfFlag } from "../feature-environments/feature-environment.read.ts";
import { strategyVariantsOfFlag } from "../feature-environments/strategy.read.ts";
import type { EnvironmentVariant, StrategyVariant } from "../feature-environments/strategy.types.ts";

builder.queryField("dependenciesExist", (t) =>
  t.boolean({
    description: "Whether any flag of the instance depends on another.",
    authScopes: { authenticated: true },
    resolve: async (_root, _args, ctx) =>
      (await ctx.db.featureDependency.findFirst({ select: { childName: true } })) !== null,
  }),
);

builder.prismaObjectFields("Feature", (t) => ({
  possibleParents: t.stringList({
    description:
      "Flags this flag could depend on: active flags of its project other than itself that have no parent of their own (no transitive dependencies), by name.",
    select: { name: true, projectId: true },
    resolve: async (feature, _args, ctx) => {
      const rows = await ctx.db.feature.findMany({
        where: {
          projectId: feature.projectId,
          archivedAt: null,
          name: { not: feature.name },
          parents: { none: {} },
        },
        select: { name: true },
        orderBy: { name: "asc" },
      });
      return rows.map((r) => r.name);
    },
  }),
  parentVariantOptions: t.stringList({
    description:
      "The variant names a child could require of this flag: those of its strategies and of its environments, distinct, by name.",
    select: { name: true },
    resolve: async (feature, _args, ctx) => {
      const [strategies, environments] = await Promise.all([
        strategyVariantsOfFlag(ctx.db, feature.name),
        environmentVariantsOfFlag(ctx.db, feature.name),
      ]);
      const names = new Set<string>();
      for (const s of strategies) for (const v of s.variants as StrategyVariant[]) names.add(v.name);
      for (const e of environments) for (const v of e.variants as EnvironmentVariant[]) names.add(v.name);
      return [...names].sort();
    },
  }),
}));
