import { builder } from "../../builder.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { NODE_ID } from "../../shared/node-ids.ts";
import {
  EnvironmentVariantRef,
  FeatureEnvironmentRef,
  STRATEGY_ORDER,
} from "../feature-environments/feature-environment.schema.ts";
import { FeatureStrategyRef } from "../feature-environments/strategy.schema.ts";
import type { EnvironmentVariant } from "../feature-environments/strategy.types.ts";
import { imageOf } from "../users/avatars.logic.ts";
import { toUserSummary, type UserSummary } from "../users/user-summary.logic.ts";
import { currentLifecycleStage } from "./lifecycle.logic.ts";

export const UserSummaryRef = builder
  .objectRef<{ id: number; name: string; imageUrl: string | null }>("UserSummary")
  .implement({
    description: "A user as shown next to what they did: id, display name, avatar.",
    fields: (t) => ({
      id: t.exposeInt("id", { description: "User id (-42: an admin API token, -1337: the system)." }),
      name: t.exposeString("name", { description: "Name, else username, else email." }),
      imageUrl: t.string({
        description: "Avatar URL: the user's image, else one Vexil generates for them.",
        resolve: (u, _args, ctx) => imageOf(ctx.config.publicUrl, u),
      }),
    }),
  });

/** A tag as a flag carries it, with its type's colour (Unleash copies the colour into each). */
export type FlagTag = { tagType: string; tagValue: string; color: string | null };

/** The selection of a FeatureTag row that answers a `Tag` (flagTagOf). */
export const FLAG_TAG_SELECT = {
  tagType: true,
  tagValue: true,
  tag: { select: { tagType: { select: { color: true } } } },
} as const;

export const flagTagOf = (row: {
  tagType: string;
  tagValue: string;
  tag: { tagType: { color: string | null } };
}): FlagTag => ({ tagType: row.tagType, tagValue: row.tagValue, color: row.tag.tagType.color });

export const TagRef = builder.objectRef<FlagTag>("Tag").implement({
  description: "A tag on a flag (spec 2.1).",
  fields: (t) => ({
    type: t.exposeString("tagType", { description: "Tag type name." }),
    value: t.exposeString("tagValue", { description: "Tag value (2 to 50 characters)." }),
    color: t.exposeString("color", {
      nullable: true,
      description: "The colour of the tag's type (`#RRGGBB`), null when it has none.",
    }),
  }),
});

const DependencyRef = builder.prismaObject("FeatureDependency", {
  name: "FeatureDependencyLink",
  description: "This flag is only enabled when its parent flag is (spec 2.8 `dependencies`).",
  fields: (t) => ({
    feature: t.exposeString("parentName", { description: "The parent flag." }),
    enabled: t.exposeBoolean("enabled", {
      description: "Whether the parent must be enabled (true) or disabled.",
    }),
    variants: t.exposeStringList("variants", {
      description: "Parent variants that satisfy it; empty = any.",
    }),
  }),
});

export const LifecycleRef = builder
  .objectRef<{ stage: string; status: string | null; enteredStageAt: Date }>("FeatureLifecycle")
  .implement({
    description: "The stage a flag is in (spec 3.3).",
    fields: (t) => ({
      stage: t.exposeString("stage", { description: "initial, pre-live, live, completed or archived." }),
      status: t.exposeString("status", {
        nullable: true,
        description: "e.g. kept or discarded for completed.",
      }),
      enteredStageAt: t.expose("enteredStageAt", { type: "DateTime", description: "When the stage began." }),
    }),
  });

/**
 * The order of a flag's environments. Fields that read the same relation use the same
 * arguments, so Pothos folds them into the parent's one statement (different arguments would
 * make it read the relation again, one statement each).
 */
const ENVIRONMENT_ORDER = {
  orderBy: [{ environment: { sortOrder: "asc" as const } }, { environmentName: "asc" as const }],
};

export const FeatureRef = builder.prismaNode("Feature", {
  description: "A feature flag (spec 2.8).",
  nullable: true,
  id: { ...NODE_ID, field: "name" },
  fields: (t) => ({
    name: t.exposeID("name", {
      description: "Unique, URL-friendly flag name: the flag's own key (it has no databaseId, D-18).",
    }),
    type: t.exposeString("type", {
      description: "release, experiment, operational, kill-switch or permission.",
    }),
    description: t.exposeString("description", { nullable: true, description: "Free text." }),
    project: t.exposeString("projectId", { description: "Id of the project the flag belongs to." }),
    archived: t.boolean({ description: "Whether archived.", resolve: (f) => f.archivedAt !== null }),
    stale: t.exposeBoolean("stale", { description: "Marked stale by a user." }),
    potentiallyStale: t.exposeBoolean("potentiallyStale", {
      description: "Older than its type's expected lifetime.",
    }),
    impressionData: t.exposeBoolean("impressionData", { description: "SDKs emit impression events." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Creation time." }),
    archivedAt: t.expose("archivedAt", { type: "DateTime", nullable: true, description: "When archived." }),
    lastSeenAt: t.expose("lastSeenAt", {
      type: "DateTime",
      nullable: true,
      deprecationReason: "Use the per-environment lastSeenAt.",
      description: "Last metrics seen in any environment.",
    }),
    enabled: t.boolean({
      description: "Whether the flag is on in at least one environment.",
      // The same arguments as the `environments` relation, so that both share one read.
      select: { environments: { select: { enabled: true }, ...ENVIRONMENT_ORDER } },
      resolve: (f) => f.environments.some((e) => e.enabled),
    }),
    favorite: t.boolean({
      description:
        "Whether the calling user (the shared admin-token user for admin API tokens) favourited it.",
      resolve: (f, _args, ctx) => ctx.loaders.isFavoriteFeatureOfActor(f.name),
    }),
    createdBy: t.field({
      type: UserSummaryRef,
      description: "Who created the flag.",
      select: {
        createdBy: { select: { id: true, name: true, username: true, email: true, imageUrl: true } },
      },
      resolve: (f) => toUserSummary(f.createdBy),
    }),
    environments: t.relation("environments", {
      description: "Per-environment state, by environment sortOrder then name.",
      query: ENVIRONMENT_ORDER,
    }),
    variants: t.field({
      type: [EnvironmentVariantRef],
      deprecationReason: "Use environments.variants.",
      description: "Flag-level variants.",
      resolve: (f) => f.variants as EnvironmentVariant[],
    }),
    strategies: t.field({
      type: [FeatureStrategyRef],
      deprecationReason: "Use environments.strategies.",
      description: "Strategies of every environment, by environment name then sortOrder.",
      // Read through the environments, with the arguments of `environments` and their
      // `strategies`: a record showing both (every REST answer) reads the strategies once.
      select: (_args, _ctx, nested) => ({
        environments: {
          ...ENVIRONMENT_ORDER,
          select: { environmentName: true, strategies: { ...nested(true), ...STRATEGY_ORDER } },
        },
      }),
      resolve: (f) =>
        f.environments
          .toSorted((a, b) => (a.environmentName < b.environmentName ? -1 : 1))
          .flatMap((e) => e.strategies),
    }),
    tags: t.field({
      type: [TagRef],
      description: "Tags, by type then value.",
      select: { tags: { select: FLAG_TAG_SELECT, orderBy: [{ tagType: "asc" }, { tagValue: "asc" }] } },
      resolve: (f) => f.tags.map(flagTagOf),
    }),
    children: t.stringList({
      description: "Names of flags that depend on this one.",
      select: { children: { select: { childName: true }, orderBy: { childName: "asc" } } },
      resolve: (f) => f.children.map((c) => c.childName),
    }),
    dependencies: t.relation("parents", {
      type: DependencyRef,
      description: "Parent flags this one depends on.",
      query: { orderBy: { parentName: "asc" } },
    }),
    lifecycle: t.field({
      type: LifecycleRef,
      nullable: true,
      description: "Current stage (archived > completed > live > pre-live > initial).",
      select: { lifecycle: true, archivedAt: true },
      resolve: (f) => currentLifecycleStage(f.lifecycle, f.archivedAt),
    }),
    lifecycleStages: t.field({
      type: [LifecycleRef],
      description: "Every stage the flag entered, oldest first (Unleash's lifecycle read).",
      select: { lifecycle: { orderBy: { createdAt: "asc" } } },
      resolve: (f) =>
        f.lifecycle.map((row) => ({ stage: row.stage, status: row.status, enteredStageAt: row.createdAt })),
    }),
    collaborators: t.field({
      type: CollaboratorsRef,
      description: "Users who changed the flag, most recent first.",
      resolve: async (f, _args, ctx) => ({ users: await ctx.loaders.featureCollaborators(f.name) }),
    }),
  }),
});

const CollaboratorsRef = builder.objectRef<{ users: UserSummary[] }>("FeatureCollaborators").implement({
  description: "People who worked on a flag.",
  fields: (t) => ({
    users: t.field({ type: [UserSummaryRef], resolve: (c) => c.users, description: "The users." }),
  }),
});

// Narrows the relation in the parent's own statement (a `where` on the nested selection), so
// reading one environment costs what reading the list does.
builder.prismaObjectField(FeatureRef, "environment", (t) =>
  t.field({
    type: FeatureEnvironmentRef,
    description:
      "The flag's state in one environment; NOT_FOUND when the flag's project does not use that environment.",
    args: { name: t.arg.string({ required: true, description: "Environment name." }) },
    select: (args, _ctx, nested) => ({
      environments: { ...nested(true), where: { environmentName: args.name } },
    }),
    resolve: (feature, args) => {
      const [found] = feature.environments;
      if (!found)
        throw new NotFoundError(`Environment "${args.name}" is not enabled for this flag's project.`);
      return found;
    },
  }),
);
