import { builder } from "../../builder.ts";
import type { Context } from "../../context.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { rowAnswersQuery } from "../../shared/query-answer.ts";
import { deletedMeanwhile, runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import type { EnablementWanted } from "./enablement.logic.ts";
import { enablementChangesNothing } from "./enablement.read.ts";
import { changeEnablement } from "./enablement.write.ts";
import { setEnvironmentVariants } from "./environment-variants.write.ts";
import { requireStrategyCreationWhenNone } from "./guards.read.ts";
import { addStrategy, deleteStrategy, reorderStrategies, updateStrategy } from "./strategies.write.ts";
import type { NewStrategyInput, StrategyUpdateInput as UpdateInput } from "./strategy.inputs.ts";
import {
  EnvironmentVariantInput,
  StrategyInput,
  StrategySortOrderInput,
  StrategyUpdateInput,
} from "./strategy-inputs.schema.ts";
import { type EnvironmentTarget, SEGMENT_IDS } from "./strategy-record.read.ts";
import { featureEnvironmentKey, requireDirectChange, scope, target, targetArgs } from "./target.schema.ts";

/**
 * The flag's record, read after the toggle committed (or found nothing to change), so the
 * transaction holds the flag's lock for its statements only. A flag deleted since is a 404.
 */
async function currentRecord(ctx: Context, query: FeatureQuery, name: string) {
  const feature = await ctx.db.feature.findUnique({ ...query, where: { name } });
  if (!feature) throw new NotFoundError(`Could not find feature flag "${name}"`);
  return feature;
}

type FeatureQuery = { include?: Prisma.FeatureInclude; select?: Prisma.FeatureSelect };

/** A toggle that would change nothing is answered without a transaction (enablement.read.ts). */
async function changeEnablementUnlessNothing(ctx: Context, on: EnvironmentTarget, wanted: EnablementWanted) {
  if (await enablementChangesNothing(ctx.db, on, wanted)) return;
  await runWrite(ctx, (w) => changeEnablement(w, on, wanted, ctx.config.limits));
}

builder.mutationFields((t) => {
  return {
    enableFeatureEnvironment: t.prismaField({
      type: "Feature",
      description:
        "Turns a flag on in an environment (spec 4.1). Adds the default strategy first when none would apply (feature-strategy-add), or with `shouldActivateDisabledStrategies` re-enables the disabled ones (feature-strategy-update each); then feature-environment-enabled if it was off. Repeating it records nothing.",
      args: {
        ...targetArgs,
        shouldActivateDisabledStrategies: t.arg.boolean({
          description: "Re-enable disabled strategies instead of adding the default strategy.",
        }),
      },
      authScopes: scope(PERMISSIONS.UPDATE_FEATURE_ENVIRONMENT),
      resolve: async (query, _root, args, ctx) => {
        await requireDirectChange(ctx, args);
        await requireStrategyCreationWhenNone(ctx, args.project, args.feature, args.environment);
        const wanted = {
          enabled: true,
          shouldActivateDisabledStrategies: args.shouldActivateDisabledStrategies ?? false,
        };
        await changeEnablementUnlessNothing(ctx, target(args), wanted);
        return currentRecord(ctx, query, args.feature);
      },
    }),
    disableFeatureEnvironment: t.prismaField({
      type: "Feature",
      description: "Turns a flag off in an environment; feature-environment-disabled if it was on.",
      args: targetArgs,
      authScopes: scope(PERMISSIONS.UPDATE_FEATURE_ENVIRONMENT),
      resolve: async (query, _root, args, ctx) => {
        await requireDirectChange(ctx, args);
        await changeEnablementUnlessNothing(ctx, target(args), { enabled: false });
        return currentRecord(ctx, query, args.feature);
      },
    }),
    addFeatureStrategy: t.prismaField({
      type: "FeatureStrategy",
      description: "Adds a strategy to a flag in an environment. Event: feature-strategy-add.",
      args: {
        ...targetArgs,
        input: t.arg({ type: StrategyInput, required: true, description: "The strategy." }),
      },
      authScopes: scope(PERMISSIONS.CREATE_FEATURE_STRATEGY),
      resolve: async (query, _root, args, ctx) => {
        await requireDirectChange(ctx, args);
        const created = await runWrite(ctx, (w) =>
          addStrategy(w, target(args), args.input as NewStrategyInput, ctx.config.limits),
        );
        // The inserted row answers as its read-back would (segments included); else it is read
        // after the commit, so the flag's lock is held for the write's statements only.
        if (rowAnswersQuery(query, { segments: SEGMENT_IDS })) return created;
        const strategy = await ctx.db.featureStrategy.findUnique({ ...query, where: { id: created.id } });
        if (!strategy) throw deletedMeanwhile();
        return strategy;
      },
    }),
    updateFeatureStrategy: t.prismaField({
      type: "FeatureStrategy",
      description:
        "Changes a strategy (fields left out are kept). Event: feature-strategy-update; then feature-environment-disabled when no enabled strategy remains.",
      args: {
        ...targetArgs,
        id: t.arg.string({ required: true, description: "Strategy id." }),
        input: t.arg({ type: StrategyUpdateInput, required: true, description: "The changes." }),
      },
      authScopes: scope(PERMISSIONS.UPDATE_FEATURE_STRATEGY),
      resolve: async (query, _root, args, ctx) => {
        await requireDirectChange(ctx, args);
        return runWrite(ctx, async (w) => {
          await updateStrategy(w, target(args), args.id, args.input as UpdateInput, ctx.config.limits);
          return w.tx.featureStrategy.findUniqueOrThrow({ ...query, where: { id: args.id } });
        });
      },
    }),
    deleteFeatureStrategy: t.prismaField({
      type: "FeatureEnvironment",
      description:
        "Deletes a strategy. Event: feature-strategy-remove; then feature-environment-disabled when no enabled strategy remains.",
      args: {
        ...targetArgs,
        id: t.arg.string({ required: true, description: "Strategy id." }),
      },
      authScopes: scope(PERMISSIONS.DELETE_FEATURE_STRATEGY),
      resolve: async (query, _root, args, ctx) => {
        await requireDirectChange(ctx, args);
        return runWrite(ctx, async (w) => {
          await deleteStrategy(w, target(args), args.id);
          return w.tx.featureEnvironment.findUniqueOrThrow({ ...query, where: featureEnvironmentKey(args) });
        });
      },
    }),
    setFeatureStrategySortOrder: t.prismaField({
      type: "FeatureEnvironment",
      description: "Reorders strategies. Event: strategy-order-changed (none when the order is unchanged).",
      args: {
        ...targetArgs,
        order: t.arg({ type: [StrategySortOrderInput], required: true, description: "New positions." }),
      },
      authScopes: scope(PERMISSIONS.UPDATE_FEATURE_STRATEGY),
      resolve: async (query, _root, args, ctx) => {
        await requireDirectChange(ctx, args);
        return runWrite(ctx, async (w) => {
          await reorderStrategies(w, target(args), args.order);
          return w.tx.featureEnvironment.findUniqueOrThrow({ ...query, where: featureEnvironmentKey(args) });
        });
      },
    }),
    setFeatureEnvironmentVariants: t.prismaField({
      type: "FeatureEnvironment",
      description:
        "Replaces a flag's variants in an environment, weights rebalanced to 1000. Event: feature-environment-variants-updated.",
      args: {
        ...targetArgs,
        variants: t.arg({ type: [EnvironmentVariantInput], required: true, description: "All variants." }),
      },
      authScopes: scope(PERMISSIONS.UPDATE_FEATURE_ENVIRONMENT_VARIANTS),
      resolve: async (query, _root, args, ctx) => {
        await requireDirectChange(ctx, args);
        return runWrite(ctx, async (w) => {
          await setEnvironmentVariants(w, target(args), args.variants);
          return w.tx.featureEnvironment.findUniqueOrThrow({ ...query, where: featureEnvironmentKey(args) });
        });
      },
    }),
  };
});
