import { builder, countedConnection } from "../../builder.ts";
import type { Context } from "../../context.ts";
import { actorOf } from "../../shared/actor.ts";
import { pageRequest, toConnection } from "../../shared/pagination.ts";
import { FeatureEnvironmentRef } from "../feature-environments/feature-environment.schema.ts";
import { featureForQuery } from "../features/feature.read.ts";
import { FeatureRef, LifecycleRef, TagRef, UserSummaryRef } from "../features/feature.schema.ts";
import { NO_EVALUATIONS } from "../features/last-hour-counts.read.ts";
import { searchFeatures, searchOrdering } from "./feature-search.read.ts";
import {
  type SearchEnvironment,
  type SearchItem,
  searchItemsSql,
  toSearchItems,
} from "./feature-search-items.read.ts";
import { FeatureSearchFilterInput, FeatureSearchSortInput } from "./search-filters.schema.ts";

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

const lastHourCounts = async (fe: { featureName: string; environmentName: string }, ctx: Context) =>
  (await ctx.loaders.lastHourCounts(fe.featureName)).get(fe.environmentName) ?? NO_EVALUATIONS;

builder.prismaObjectFields(FeatureEnvironmentRef, (t) => ({
  yes: t.int({
    description: "Evaluations to true in the hour buckets started within the last hour (the current one).",
    resolve: async (fe, _args, ctx) => (await lastHourCounts(fe, ctx)).yes,
  }),
  no: t.int({
    description: "Evaluations to false in the hour buckets started within the last hour (the current one).",
    resolve: async (fe, _args, ctx) => (await lastHourCounts(fe, ctx)).no,
  }),
  changeRequestIds: t.intList({
    description: "Change requests not yet applied, cancelled or rejected that touch the flag here.",
    resolve: async (fe, _args, ctx) =>
      (await ctx.loaders.openChangeRequestIds(fe.featureName)).get(fe.environmentName) ?? [],
  }),
}));

const SearchEnvironmentRef = builder.objectRef<SearchEnvironment>("FeatureSearchEnvironment").implement({
  description: "A flag's state in one environment, as a search item shows it (spec 2.9).",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Environment name." }),
    environment: t.exposeString("name", { description: "Environment name (same as name)." }),
    type: t.exposeString("type", { description: "Environment type." }),
    sortOrder: t.exposeInt("sortOrder", { description: "Environment sort order." }),
    enabled: t.exposeBoolean("enabled", { description: "Whether the flag is on here." }),
    variantCount: t.exposeInt("variantCount", { description: "Number of variants." }),
    lastSeenAt: t.expose("lastSeenAt", {
      type: "DateTime",
      nullable: true,
      description: "Last metrics seen.",
    }),
    hasStrategies: t.exposeBoolean("hasStrategies", { description: "At least one strategy exists." }),
    hasEnabledStrategies: t.exposeBoolean("hasEnabledStrategies", {
      description: "At least one strategy is not disabled.",
    }),
    yes: t.exposeInt("yes", {
      description: "Evaluations to true in the hour buckets started within the last hour (the current one).",
    }),
    no: t.exposeInt("no", {
      description: "Evaluations to false in the hour buckets started within the last hour (the current one).",
    }),
    changeRequestIds: t.exposeIntList("changeRequestIds", {
      description: "Change requests not yet applied, cancelled or rejected that touch the flag here.",
    }),
  }),
});

const SearchItemRef = builder.objectRef<SearchItem>("FeatureSearchItem").implement({
  description:
    "A flag as the search lists it (spec 2.9), read in the search's own statement; `feature` has the rest.",
  fields: (t) => ({
    name: t.exposeID("name", { description: "Unique, URL-friendly flag name." }),
    type: t.exposeString("type", {
      description: "release, experiment, operational, kill-switch or permission.",
    }),
    description: t.exposeString("description", { nullable: true, description: "Free text." }),
    project: t.exposeString("project", { description: "Id of the project the flag belongs to." }),
    stale: t.exposeBoolean("stale", { description: "Marked stale by a user." }),
    potentiallyStale: t.exposeBoolean("potentiallyStale", {
      description: "Older than its type's expected lifetime.",
    }),
    archived: t.boolean({ description: "Whether archived.", resolve: (f) => f.archivedAt !== null }),
    impressionData: t.exposeBoolean("impressionData", { description: "SDKs emit impression events." }),
    favorite: t.exposeBoolean("favorite", {
      description: "Whether the calling user (the shared admin-token user for API tokens) favourited it.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Creation time." }),
    archivedAt: t.expose("archivedAt", { type: "DateTime", nullable: true, description: "When archived." }),
    lastSeenAt: t.expose("lastSeenAt", {
      type: "DateTime",
      nullable: true,
      description: "Last metrics seen in any environment.",
    }),
    dependencyType: t.exposeString("dependencyType", {
      nullable: true,
      description:
        "`parent` when other flags depend on this one, `child` when it depends on another, else null.",
    }),
    createdBy: t.expose("createdBy", { type: UserSummaryRef, description: "Who created the flag." }),
    environments: t.expose("environments", {
      type: [SearchEnvironmentRef],
      description: "Per-environment state, by environment sortOrder then name.",
    }),
    segments: t.exposeStringList("segments", {
      description: "Names of the segments used by any strategy of the flag, sorted.",
    }),
    tags: t.field({
      type: [TagRef],
      description: "Tags, by type then value.",
      resolve: (f) => f.tags,
    }),
    lifecycle: t.field({
      type: LifecycleRef,
      nullable: true,
      description: "Current stage (archived > completed > live > pre-live > initial).",
      // enteredStageAt is already an RFC 3339 string, which the DateTime scalar passes through
      resolve: (f) =>
        f.lifecycle as unknown as { stage: string; status: string | null; enteredStageAt: Date },
    }),
    feature: t.prismaField({
      type: "Feature",
      description: "The whole flag (strategies, variants, dependencies...), read only when asked for.",
      resolve: (query, item, _args, ctx) => featureForQuery(ctx.db, query, item.name),
    }),
  }),
});

const FeatureSearchConnection = countedConnection(
  "FeatureSearchConnection",
  SearchItemRef,
  "Flags matching every filter, across all pages.",
);

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
      last: t.arg.int({ description: "Page size counted from the end (with `before`)." }),
      before: t.arg.string({ description: "Cursor of the first flag of the next page (pages backwards)." }),
      offset: t.arg.int({ description: "Flags to skip (alternative to `after`)." }),
    },
    resolve: async (_root, args, ctx) => {
      const search = { ...args, userId: actorOf(ctx.principal).userId };
      const request = pageRequest(args, FEATURE_SEARCH_LIMITS, searchOrdering(search));
      const page = await searchFeatures(ctx.db, search, request, (names) => searchItemsSql(ctx, names));
      const items = toSearchItems(page.details as Parameters<typeof toSearchItems>[0]);
      const positions = new Map(page.keys.map((key) => [key.at(-1), key]));
      return toConnection(items, request, page.total, (item) => positions.get(item.name) ?? []);
    },
  }),
);
