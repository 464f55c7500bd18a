import { builder } from "../../builder.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import {
  patchEnvironmentVariants,
  patchStrategy,
  setFeaturesEnabled,
  setVariantsInEnvironments,
} from "./bulk.write.ts";
import { requireChangeRequestBypass, requireStrategyCreationWhenNone } from "./guards.read.ts";
import type { VariantInput } from "./strategy.inputs.ts";
import { EnvironmentVariantInput } from "./strategy-inputs.schema.ts";
import { featureEnvironmentKey, requireDirectChange, scope, target, targetArgs } from "./target.schema.ts";

/** Also the operations of patchFeature (features), which builds on this module. */
export const JsonPatchOperationInput = builder.inputType("JsonPatchOperationInput", {
  description: "One RFC 6902 operation (JSON Patch) on the document a mutation names.",
  fields: (t) => ({
    op: t.string({ required: true, description: "add, remove, replace, move, copy or test." }),
    path: t.string({ required: true, description: "JSON Pointer, e.g. /description." }),
    from: t.string({ description: "Source pointer of move and copy." }),
    value: t.field({ type: "JSON", description: "Value of add, replace and test." }),
  }),
});

/** JSON Patch operations as GraphQL gives them, without the nulls of absent fields. */
const patchOperations = (ops: { op: string; path: string; from?: string | null; value?: unknown }[]) =>
  ops.map((o) => ({
    op: o.op,
    path: o.path,
    ...(o.from == null ? {} : { from: o.from }),
    ...(o.value === undefined ? {} : { value: o.value }),
  }));

builder.mutationFields((t) => ({
  setFeaturesEnabled: t.prismaField({
    type: ["Feature"],
    description:
      "Turns several flags of a project on or off in one environment, all or nothing (Unleash's bulk toggle). Each flag as enableFeatureEnvironment / disableFeatureEnvironment does it: feature-environment-enabled or -disabled per flag whose state flips, the default strategy added where none would apply. Returns the flags in the order given.",
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      environment: t.arg.string({ required: true, description: "Environment name." }),
      features: t.arg.stringList({ required: true, description: "Flag names (each once)." }),
      enabled: t.arg.boolean({ required: true, description: "On (true) or off (false)." }),
      shouldActivateDisabledStrategies: t.arg.boolean({
        description: "When turning on: re-enable disabled strategies instead of adding the default strategy.",
      }),
    },
    authScopes: scope(PERMISSIONS.UPDATE_FEATURE_ENVIRONMENT),
    resolve: async (query, _root, args, ctx) => {
      await requireDirectChange(ctx, args);
      if (args.enabled) {
        for (const feature of new Set(args.features)) {
          await requireStrategyCreationWhenNone(ctx, args.project, feature, args.environment);
        }
      }
      return runWrite(ctx, async (w) => {
        const names = await setFeaturesEnabled(
          w,
          { project: args.project, environment: args.environment },
          args.features,
          args.enabled,
          { shouldActivateDisabledStrategies: args.shouldActivateDisabledStrategies ?? false },
          ctx.config.limits,
        );
        const rows = await w.tx.feature.findMany({ ...query, where: { name: { in: names } } });
        return names.map((name) => rows.find((r) => r.name === name)).filter((r) => r !== undefined);
      });
    },
  }),
  patchFeatureStrategy: t.prismaField({
    type: "FeatureStrategy",
    description:
      "Applies a JSON Patch (RFC 6902) to a strategy as REST shows it (name, title, disabled, sortOrder, parameters, constraints, variants, segments). Events as updateFeatureStrategy.",
    args: {
      ...targetArgs,
      id: t.arg.string({ required: true, description: "Strategy id." }),
      operations: t.arg({ type: [JsonPatchOperationInput], required: true, description: "The patch." }),
    },
    authScopes: scope(PERMISSIONS.UPDATE_FEATURE_STRATEGY),
    resolve: async (query, _root, args, ctx) => {
      await requireDirectChange(ctx, args);
      return runWrite(ctx, async (w) => {
        await patchStrategy(w, target(args), args.id, patchOperations(args.operations), ctx.config.limits);
        return w.tx.featureStrategy.findUniqueOrThrow({ ...query, where: { id: args.id } });
      });
    },
  }),
  patchFeatureEnvironmentVariants: t.prismaField({
    type: "FeatureEnvironment",
    description:
      "Applies a JSON Patch (RFC 6902) to a flag's variant list in one environment; weights rebalanced. Event: feature-environment-variants-updated (none when unchanged).",
    args: {
      ...targetArgs,
      operations: t.arg({ type: [JsonPatchOperationInput], required: true, description: "The patch." }),
    },
    authScopes: scope(PERMISSIONS.UPDATE_FEATURE_ENVIRONMENT_VARIANTS),
    resolve: async (query, _root, args, ctx) => {
      await requireDirectChange(ctx, args);
      return runWrite(ctx, async (w) => {
        await patchEnvironmentVariants(w, target(args), patchOperations(args.operations));
        return w.tx.featureEnvironment.findUniqueOrThrow({ ...query, where: featureEnvironmentKey(args) });
      });
    },
  }),
  setFeatureVariantsInEnvironments: t.prismaField({
    type: ["FeatureEnvironment"],
    description:
      "Writes the same variants to several environments of a flag, all or nothing (Unleash's variants-batch). Event: feature-environment-variants-updated per environment that changes. Needs UPDATE_FEATURE_ENVIRONMENT_VARIANTS in each environment.",
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      feature: t.arg.string({ required: true, description: "Flag name." }),
      environments: t.arg.stringList({ required: true, description: "Environment names." }),
      variants: t.arg({ type: [EnvironmentVariantInput], required: true, description: "All variants." }),
    },
    // One environment: a grant for it suffices; several: a grant covering every environment.
    authScopes: (_root, args) => {
      const environments = [...new Set(args.environments)];
      return {
        permission: {
          permission: PERMISSIONS.UPDATE_FEATURE_ENVIRONMENT_VARIANTS,
          project: args.project,
          environment: environments.length === 1 ? environments[0] : null,
        },
      };
    },
    resolve: async (query, _root, args, ctx) => {
      const environments = [...new Set(args.environments)];
      for (const environment of environments) {
        await requireChangeRequestBypass(ctx, args.project, environment);
      }
      return runWrite(ctx, async (w) => {
        const target = { project: args.project, feature: args.feature };
        await setVariantsInEnvironments(w, target, environments, args.variants as VariantInput[]);
        const rows = await w.tx.featureEnvironment.findMany({
          ...query,
          where: { featureName: args.feature, environmentName: { in: environments } },
        });
        return environments
          .map((e) => rows.find((r) => r.environmentName === e))
          .filter((r) => r !== undefined);
      });
    },
  }),
}));
