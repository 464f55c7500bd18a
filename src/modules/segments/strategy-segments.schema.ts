import { builder } from "../../builder.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { requireChangeRequestBypass } from "../feature-environments/guards.read.ts";
import { updateStrategy } from "../feature-environments/strategies.write.ts";
import {
  strategiesConstraining,
  strategyById,
  strategyForQuery,
} from "../feature-environments/strategy.read.ts";

builder.queryField("contextFieldStrategies", (t) =>
  t.prismaField({
    type: ["FeatureStrategy"],
    description:
      "The strategies with a constraint on a context field (archived flags' too; segments' constraints not counted), by flag, environment and position; optionally of one project. Empty for an unknown field.",
    authScopes: { authenticated: true },
    args: {
      contextField: t.arg.string({ required: true, description: "Context field name." }),
      projectId: t.arg.string({ description: "Only strategies of this project's flags." }),
    },
    resolve: (query, _root, args, ctx) =>
      strategiesConstraining(ctx.db, query, args.contextField, args.projectId),
  }),
);

builder.mutationField("setStrategySegments", (t) =>
  t.prismaField({
    type: "FeatureStrategy",
    description:
      "Sets the segments a strategy uses (replacing the list) as Unleash's `POST /api/admin/segments/strategies`: NOT_FOUND unless the strategy is in that project and environment; segments as for updateFeatureStrategy (existing, of the project or global, at most the limit). Event: feature-strategy-update (none when unchanged). UPDATE_FEATURE_STRATEGY in the environment.",
    args: {
      projectId: t.arg.string({ required: true, description: "Project of the strategy's flag." }),
      environmentId: t.arg.string({ required: true, description: "Environment of the strategy." }),
      strategyId: t.arg.string({ required: true, description: "Strategy id." }),
      segmentIds: t.arg.intList({ required: true, description: "The segments, by id." }),
    },
    authScopes: (_root, args) => ({
      permission: {
        permission: PERMISSIONS.UPDATE_FEATURE_STRATEGY,
        project: args.projectId,
        environment: args.environmentId,
      },
    }),
    resolve: async (query, _root, args, ctx) => {
      await requireChangeRequestBypass(ctx, args.projectId, args.environmentId);
      return runWrite(ctx, async (w) => {
        const strategy = await strategyById(w.tx, args.strategyId);
        if (
          !strategy ||
          strategy.projectId !== args.projectId ||
          strategy.environmentName !== args.environmentId
        ) {
          throw new NotFoundError(`Could not find strategy with id ${args.strategyId}`);
        }
        const target = {
          project: args.projectId,
          feature: strategy.featureName,
          environment: args.environmentId,
        };
        await updateStrategy(w, target, args.strategyId, { segments: args.segmentIds }, ctx.config.limits);
        return strategyForQuery(w.tx, query, args.strategyId);
      });
    },
  }),
);
