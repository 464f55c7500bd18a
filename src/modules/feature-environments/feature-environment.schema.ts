import { builder } from "../../builder.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { compoundKey, NODE_ID } from "../../shared/node-ids.ts";
import { FeatureStrategyRef, PayloadRef } from "./strategy.schema.ts";
import type { EnvironmentVariant } from "./strategy.types.ts";

const OverrideRef = builder
  .objectRef<{ contextName: string; values: string[] }>("VariantOverride")
  .implement({
    description: "Assigns a variant to the given context values before weights apply.",
    fields: (t) => ({
      contextName: t.exposeString("contextName", { description: "Context field." }),
      values: t.exposeStringList("values", { description: "Values that get this variant." }),
    }),
  });

export const EnvironmentVariantRef = builder.objectRef<EnvironmentVariant>("EnvironmentVariant").implement({
  description: "A variant of a flag in one environment (spec 2.5).",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Unique within the flag." }),
    weight: t.exposeFloat("weight", { description: "Share out of 1000." }),
    weightType: t.string({
      nullable: true,
      resolve: (v) => v.weightType ?? null,
      description: "`fix` or `variable`.",
    }),
    stickiness: t.string({
      nullable: true,
      resolve: (v) => v.stickiness ?? null,
      description: "Stickiness field.",
    }),
    payload: t.field({
      type: PayloadRef,
      nullable: true,
      resolve: (v) => v.payload ?? null,
      description: "Payload.",
    }),
    overrides: t.field({ type: [OverrideRef], resolve: (v) => v.overrides ?? [], description: "Overrides." }),
  }),
});

/**
 * The order of an environment's strategies. Fields that read the same relation use the same
 * arguments, so Pothos folds them into the parent's one statement (different arguments would
 * make it read the relation again, one statement each).
 */
export const STRATEGY_ORDER = { orderBy: [{ sortOrder: "asc" as const }, { createdAt: "asc" as const }] };

export const FeatureEnvironmentRef = builder.prismaNode("FeatureEnvironment", {
  description: "A flag's state in one environment (spec 2.7).",
  nullable: true,
  id: {
    ...NODE_ID,
    resolve: (fe) => JSON.stringify([fe.featureName, fe.environmentName]),
  },
  findUnique: (id) => {
    const [featureName, environmentName] = compoundKey(id, 2) as [string, string];
    return { featureName_environmentName: { featureName, environmentName } };
  },
  fields: (t) => ({
    name: t.exposeString("environmentName", { description: "Environment name." }),
    environment: t.exposeString("environmentName", { description: "Environment name (same as name)." }),
    featureName: t.exposeString("featureName", { description: "The flag." }),
    type: t.string({
      description: "Environment type.",
      select: { environment: { select: { type: true } } },
      resolve: (fe) => fe.environment.type,
    }),
    sortOrder: t.int({
      description: "Environment sort order.",
      select: { environment: { select: { sortOrder: true } } },
      resolve: (fe) => fe.environment.sortOrder,
    }),
    enabled: t.exposeBoolean("enabled", { description: "Whether the flag is on here." }),
    strategies: t.relation("strategies", {
      description: "Strategies, by sortOrder.",
      query: STRATEGY_ORDER,
    }),
    hasStrategies: t.boolean({
      description: "At least one strategy exists.",
      select: { _count: { select: { strategies: true } } },
      resolve: (fe) => fe._count.strategies > 0,
    }),
    hasEnabledStrategies: t.boolean({
      description: "At least one strategy is not disabled.",
      // The same arguments as the `strategies` relation, so that both share one read.
      select: { strategies: { select: { disabled: true }, ...STRATEGY_ORDER } },
      resolve: (fe) => fe.strategies.some((s) => !s.disabled),
    }),
    variants: t.field({
      type: [EnvironmentVariantRef],
      description: "Variants in this environment.",
      resolve: (fe) => fe.variants as EnvironmentVariant[],
    }),
    variantCount: t.int({
      description: "Number of variants.",
      resolve: (fe) => (fe.variants as unknown[]).length,
    }),
    lastSeenAt: t.expose("lastSeenAt", {
      type: "DateTime",
      nullable: true,
      description: "Last metrics seen.",
    }),
  }),
});

// Narrows the relation in the parent's own statement (a `where` on the nested selection), so
// reading one strategy costs what reading the list does.
builder.prismaObjectField(FeatureEnvironmentRef, "strategy", (t) =>
  t.field({
    type: FeatureStrategyRef,
    description: "One of its strategies, by id; NOT_FOUND when it has no such strategy.",
    args: { id: t.arg.string({ required: true, description: "Strategy id." }) },
    select: (args, _ctx, nested) => ({ strategies: { ...nested(true), where: { id: args.id } } }),
    resolve: (environment, args) => {
      const [found] = environment.strategies;
      if (!found) throw new NotFoundError(`Could not find strategy with id ${args.id}`);
      return found;
    },
  }),
);
