import { builder } from "../../builder.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { FeatureEnvironmentRef, FeatureRef } from "../features/feature.schema.ts";
import { FeatureStrategyRef } from "../features/strategy.schema.ts";

// Both fields narrow a relation in the parent's own statement (a `where` on the nested
// selection), so reading one environment or strategy costs what reading the list does.

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
