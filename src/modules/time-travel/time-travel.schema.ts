import { builder } from "../../builder.ts";
import type { Context } from "../../context.ts";
import { ForbiddenOperation } from "../../shared/errors.ts";
import { visibilityOf } from "../events/visibility.logic.ts";
import { EnvironmentVariantRef } from "../feature-environments/feature-environment.schema.ts";
import { ConstraintRef, StrategyVariantRef } from "../feature-environments/strategy.schema.ts";
import type { Serves } from "../flag-record/flag-record.logic.ts";
import { type ChangeEvent, changesBetween, type FieldChange, type FlagChanges } from "./changes.read.ts";
import type {
  FlagState,
  PastDependency,
  PastEnvironment,
  PastStrategy,
  PastTag,
} from "./flag-state.logic.ts";
import {
  environmentAt,
  exactSinceOf,
  type FlagAt,
  flagAt,
  lastKnownProject,
  projectFlagNames,
} from "./history.read.ts";

/** History is read where the audit log is: the caller must be able to read the project's events. */
export function assertProjectHistoryReadable(ctx: Context, project: string) {
  if (!visibilityOf(ctx).accept({ project })) {
    throw new ForbiddenOperation(`This credential cannot read project "${project}".`);
  }
}

// The past flag's types serve the flag record (flag-record.logic.ts) field for field: each field
// map `satisfies Serves<...>`, so a field added to the record does not compile until served here.

const PastStrategyRef = builder.objectRef<PastStrategy>("PastStrategy").implement({
  description: "A strategy as it was at a past instant (fields as Strategy).",
  fields: (t) =>
    ({
      // Named as on the live Strategy, whose `id` is its global (Node) id: a past strategy is
      // not the live entity, so it has no global id a client cache would merge it under.
      databaseId: t.exposeString("id", { description: "The strategy's UUID (Strategy.databaseId)." }),
      name: t.exposeString("name", { description: "Strategy type, e.g. flexibleRollout." }),
      title: t.exposeString("title", { nullable: true, description: "Optional human title." }),
      disabled: t.exposeBoolean("disabled", { description: "Disabled strategies are not evaluated." }),
      sortOrder: t.exposeInt("sortOrder", { description: "Position in the list, ascending." }),
      segments: t.exposeIntList("segments", { description: "Ids of attached segments." }),
      constraints: t.field({
        type: [ConstraintRef],
        resolve: (s) => s.constraints,
        description: "Constraints.",
      }),
      variants: t.field({ type: [StrategyVariantRef], resolve: (s) => s.variants, description: "Variants." }),
      parameters: t.field({ type: "JSON", resolve: (s) => s.parameters, description: "Parameters." }),
    }) satisfies Serves<PastStrategy, { id: "databaseId" }>,
});

const PastEnvironmentRef = builder.objectRef<PastEnvironment>("PastFeatureEnvironment").implement({
  description: "A flag's state in one environment at a past instant.",
  fields: (t) =>
    ({
      name: t.exposeString("name", { description: "Environment name." }),
      enabled: t.exposeBoolean("enabled", { description: "Whether the flag was on there." }),
      strategies: t.field({
        type: [PastStrategyRef],
        resolve: (e) => e.strategies,
        description: "By sortOrder.",
      }),
      variants: t.field({
        type: [EnvironmentVariantRef],
        resolve: (e) => e.variants,
        description: "Variants.",
      }),
    }) satisfies Serves<PastEnvironment>,
});

const PastTagRef = builder.objectRef<PastTag>("PastTag").implement({
  description: "A tag a flag had.",
  fields: (t) =>
    ({
      type: t.exposeString("type", { description: "Tag type." }),
      value: t.exposeString("value", { description: "Tag value." }),
    }) satisfies Serves<PastTag>,
});

const PastDependencyRef = builder.objectRef<PastDependency>("PastDependency").implement({
  description: "A parent the flag depended on.",
  fields: (t) =>
    ({
      feature: t.exposeString("feature", { description: "The parent flag." }),
      enabled: t.exposeBoolean("enabled", { description: "Whether the parent had to be enabled." }),
      variants: t.exposeStringList("variants", { description: "Parent variants that satisfied it." }),
    }) satisfies Serves<PastDependency>,
});

export const PastFeatureRef = builder.objectRef<FlagState>("PastFeature").implement({
  description: "A flag as it was at a past instant.",
  fields: (t) =>
    ({
      name: t.exposeString("name", { description: "Flag name." }),
      project: t.exposeString("project", { description: "Project." }),
      type: t.exposeString("type", { description: "Flag type." }),
      description: t.exposeString("description", { nullable: true, description: "Description." }),
      stale: t.exposeBoolean("stale", { description: "Marked stale." }),
      impressionData: t.exposeBoolean("impressionData", { description: "Impression data on." }),
      archived: t.exposeBoolean("archived", { description: "Archived." }),
      createdAt: t.string({ resolve: (f) => f.createdAt, description: "Creation time (RFC 3339)." }),
      environments: t.field({
        type: [PastEnvironmentRef],
        resolve: (f) => f.environments,
        description: "Per-environment state, by environment name.",
      }),
      tags: t.field({ type: [PastTagRef], resolve: (f) => f.tags, description: "Tags, by type then value." }),
      dependencies: t.field({
        type: [PastDependencyRef],
        resolve: (f) => f.dependencies,
        description: "Parents, by name.",
      }),
    }) satisfies Serves<FlagState>,
});

const FeatureAtRef = builder.objectRef<FlagAt>("FeatureAt").implement({
  description: "A flag at one instant, rebuilt from its recorded history.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Flag name." }),
    at: t.expose("at", { type: "DateTime", description: "The instant asked for." }),
    state: t.field({
      type: PastFeatureRef,
      nullable: true,
      resolve: (f) => f.state,
      description: "The flag then: null when it did not exist, or when `exact` is false.",
    }),
    lastEventId: t.field({
      type: "Long",
      nullable: true,
      resolve: (f) => f.lastEventId,
      description: "Id of the last event applied (at or before `at`).",
    }),
    since: t.expose("since", { type: "DateTime", nullable: true, description: "When that state began." }),
    exact: t.exposeBoolean("exact", {
      description:
        "False when `at` is before `exactSince` for a flag older than time travel: then it is unknown.",
    }),
    exactSince: t.expose("exactSince", {
      type: "DateTime",
      nullable: true,
      description:
        "From this instant on the flag's history is exact (its creation, or when time travel began).",
    }),
  }),
});

const EnvironmentSnapshotRef = builder
  .objectRef<{ project: string; environment: string; at: Date; features: FlagAt[] }>("EnvironmentSnapshot")
  .implement({
    description: "Every flag of a project in one environment at a past instant.",
    fields: (t) => ({
      project: t.exposeString("project", { description: "Project." }),
      environment: t.exposeString("environment", { description: "Environment." }),
      at: t.expose("at", { type: "DateTime", description: "The instant asked for." }),
      exactSince: t.field({
        type: "DateTime",
        nullable: true,
        resolve: (s) => exactSinceOf(s.features),
        description: "From this instant on every flag listed is exact (null: all of their history is).",
      }),
      features: t.field({
        type: [FeatureAtRef],
        resolve: (s) => s.features,
        description: "The flags then (by name), each with only this environment.",
      }),
    }),
  });

const ChangeEventRef = builder.objectRef<ChangeEvent>("ChangeEvent").implement({
  description: "An event that contributed to a change.",
  fields: (t) => ({
    id: t.field({ type: "Long", resolve: (e) => e.id, description: "Event id." }),
    type: t.exposeString("type", { description: "Event type." }),
    createdBy: t.exposeString("createdBy", { description: "Who." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When." }),
  }),
});

const FieldChangeRef = builder.objectRef<FieldChange>("FieldChange").implement({
  description: "One field of a flag that differs between two instants.",
  fields: (t) => ({
    field: t.exposeString("field", {
      description:
        "exists, archived, stale, description, type, impressionData, tags, dependencies; per environment: enabled, strategies, variants.",
    }),
    environment: t.exposeString("environment", {
      nullable: true,
      description: "Null for flag-level fields.",
    }),
    before: t.field({
      type: "JSON",
      nullable: true,
      resolve: (c) => c.before,
      description: "Value at `from`.",
    }),
    after: t.field({ type: "JSON", nullable: true, resolve: (c) => c.after, description: "Value at `to`." }),
    events: t.field({
      type: [ChangeEventRef],
      resolve: (c) => c.events,
      description:
        "The events in (from, to] that changed this field, most recent first (at most 10; see moreEvents).",
    }),
    moreEvents: t.exposeBoolean("moreEvents", {
      description: "Whether there were more such events than listed.",
    }),
  }),
});

const FeatureChangesRef = builder.objectRef<FlagChanges>("FeatureChanges").implement({
  description: "What changed for one flag between two instants.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Flag name." }),
    exact: t.exposeBoolean("exact", {
      description: "Whether both instants are in the flag's exact history.",
    }),
    fields: t.field({
      type: [FieldChangeRef],
      resolve: (c) => c.fields,
      description: "The differing fields.",
    }),
  }),
});

builder.queryFields((t) => ({
  featureAt: t.field({
    type: FeatureAtRef,
    nullable: true,
    description: "One flag as it was at `at`, rebuilt from the event log; null when it has no history.",
    authScopes: { authenticated: true },
    args: {
      name: t.arg.string({ required: true, description: "Flag name." }),
      at: t.arg({ type: "DateTime", required: true, description: "The instant." }),
    },
    resolve: async (_root, args, ctx) => {
      const flag = await flagAt(ctx.db, args.name, args.at);
      if (!flag) return null;
      const project = flag.state?.project ?? (await lastKnownProject(ctx.db, args.name));
      if (project) assertProjectHistoryReadable(ctx, project);
      return flag;
    },
  }),
  environmentSnapshot: t.field({
    type: EnvironmentSnapshotRef,
    description: "Every flag of a project in one environment as it was at `at`.",
    authScopes: { authenticated: true },
    args: {
      project: t.arg.string({ required: true, description: "Project." }),
      environment: t.arg.string({ required: true, description: "Environment." }),
      at: t.arg({ type: "DateTime", required: true, description: "The instant." }),
    },
    resolve: async (_root, args, ctx) => {
      assertProjectHistoryReadable(ctx, args.project);
      const features = await environmentAt(ctx.db, args.project, args.environment, args.at);
      return { project: args.project, environment: args.environment, at: args.at, features };
    },
  }),
  changes: t.field({
    type: [FeatureChangesRef],
    description:
      "Per flag of the project, what differs in one environment between `from` and `to` (at most 31 days apart).",
    authScopes: { authenticated: true },
    args: {
      project: t.arg.string({ required: true, description: "Project." }),
      environment: t.arg.string({ required: true, description: "Environment." }),
      from: t.arg({ type: "DateTime", description: "Start instant (default: a day before `to`)." }),
      to: t.arg({ type: "DateTime", description: "End instant (default: now)." }),
    },
    resolve: async (_root, args, ctx) => {
      assertProjectHistoryReadable(ctx, args.project);
      const range = rangeOf(args, ctx.now());
      const names = await projectFlagNames(ctx.db, args.project, range.from);
      return changesBetween(ctx.db, names, range, args.environment);
    },
  }),
  featureChanges: t.field({
    type: FeatureChangesRef,
    nullable: true,
    description:
      "What differs for one flag between `from` and `to` (every environment, or only `environment`).",
    authScopes: { authenticated: true },
    args: {
      name: t.arg.string({ required: true, description: "Flag name." }),
      environment: t.arg.string({ description: "Only this environment." }),
      from: t.arg({ type: "DateTime", description: "Start instant (default: a day before `to`)." }),
      to: t.arg({ type: "DateTime", description: "End instant (default: now)." }),
    },
    resolve: async (_root, args, ctx) => {
      const project = await lastKnownProject(ctx.db, args.name);
      if (project) assertProjectHistoryReadable(ctx, project);
      const [changes] = await changesBetween(
        ctx.db,
        [args.name],
        rangeOf(args, ctx.now()),
        args.environment ?? null,
      );
      return changes ?? { name: args.name, exact: true, fields: [] };
    },
  }),
}));

const DAY_MS = 24 * 3600 * 1000;

/** The range a diff covers: `to` defaults to now, `from` to a day before `to`. */
function rangeOf(args: { from?: Date | null; to?: Date | null }, now: Date) {
  const to = args.to ?? now;
  return { from: args.from ?? new Date(to.getTime() - DAY_MS), to };
}
