import { queryFromInfo } from "@pothos/plugin-prisma";
import { builder } from "../../builder.ts";
import type { Context } from "../../context.ts";
import { type Connection, pageWindow, toConnection } from "../../shared/pagination.ts";
import { actorOf } from "../access/principal.ts";
import { FeatureEnvironmentRef, FeatureRef } from "../features/feature.schema.ts";
import { searchFeatures } from "./feature-search.ts";
import { FeatureSearchFilterInput, FeatureSearchSortInput } from "./search.inputs.ts";
import { type PageExtras, pageExtrasSql, primePageExtras, searchLoaders } from "./search.loaders.ts";

/** Flag search pages: the dashboard asks for 25, Unleash caps at 100. */
export const FEATURE_SEARCH_LIMITS = { defaultLimit: 50, maxLimit: 100, minLimit: 1 };

builder.prismaObjectFields(FeatureRef, (t) => ({
  segments: t.stringList({
    description: "Names of the segments used by any strategy of the flag, sorted.",
    select: { strategies: { select: { segments: { select: { segment: { select: { name: true } } } } } } },
    resolve: (f) => [...new Set(f.strategies.flatMap((s) => s.segments.map((x) => x.segment.name)))].sort(),
  }),
  dependencyType: t.string({
    nullable: true,
    description:
      "`parent` when other flags depend on this one, `child` when it depends on another, else null.",
    select: { _count: { select: { children: true, parents: true } } },
    resolve: (f) => (f._count.children > 0 ? "parent" : f._count.parents > 0 ? "child" : null),
  }),
}));

const NO_EVALUATIONS = { yes: 0, no: 0 };

const lastHourCounts = async (fe: { featureName: string; environmentName: string }, ctx: Context) =>
  (await searchLoaders(ctx).lastHourCounts.load(fe.featureName)).get(fe.environmentName) ?? NO_EVALUATIONS;

builder.prismaObjectFields(FeatureEnvironmentRef, (t) => ({
  yes: t.int({
    description: "Evaluations to true in the last complete hour.",
    resolve: async (fe, _args, ctx) => (await lastHourCounts(fe, ctx)).yes,
  }),
  no: t.int({
    description: "Evaluations to false in the last complete hour.",
    resolve: async (fe, _args, ctx) => (await lastHourCounts(fe, ctx)).no,
  }),
  changeRequestIds: t.intList({
    description: "Change requests not yet applied, cancelled or rejected that touch the flag here.",
    resolve: async (fe, _args, ctx) =>
      (await searchLoaders(ctx).openChangeRequestIds.load(fe.featureName)).get(fe.environmentName) ?? [],
  }),
}));

const FeatureSearchConnection = builder.connectionObject({
  type: FeatureRef,
  name: "FeatureSearchConnection",
  fields: (t) => ({
    totalCount: t.int({
      description: "Flags matching every filter, across all pages.",
      resolve: (c) => (c as unknown as Connection<unknown>).totalCount,
    }),
  }),
});

builder.queryField("featureSearch", (t) =>
  t.field({
    type: FeatureSearchConnection,
    description: "Searches and filters flags (spec 4.2); the dashboard's flag list.",
    authScopes: { authenticated: true },
    args: {
      filter: t.arg({ type: FeatureSearchFilterInput, description: "Filters, ANDed." }),
      sort: t.arg({ type: FeatureSearchSortInput, description: "Order (default CREATED_AT ASC)." }),
      favoritesFirst: t.arg.boolean({ description: "The caller's favourite flags come first." }),
      first: t.arg.int({ description: "Page size (default 50, 1 to 100)." }),
      after: t.arg.string({ description: "Cursor of the last flag of the previous page." }),
      offset: t.arg.int({ description: "Flags to skip (alternative to `after`)." }),
    },
    resolve: async (_root, args, ctx, info) => {
      const window = pageWindow(args, FEATURE_SEARCH_LIMITS);
      const search = { ...args, userId: actorOf(ctx.principal).userId };
      const page = await searchFeatures(ctx.db, search, window, (names) => pageExtrasSql(ctx, names));
      primePageExtras(ctx, page.names, page.extras as PageExtras);
      const rows = await ctx.db.feature.findMany({
        ...(queryFromInfo({ context: ctx, info, typeName: "Feature", path: ["edges", "node"] }) as object),
        where: { name: { in: page.names } },
      });
      const byName = new Map(rows.map((r) => [r.name, r]));
      const items = page.names.map((n) => byName.get(n)).filter((r) => r !== undefined);
      return toConnection(items, window, page.total);
    },
  }),
);
