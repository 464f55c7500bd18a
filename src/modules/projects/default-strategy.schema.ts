import { builder } from "../../builder.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { StrategyInput } from "../feature-environments/strategy-inputs.schema.ts";
import {
  type DefaultStrategy,
  type DefaultStrategyInput,
  setDefaultStrategy,
} from "./default-strategy.write.ts";

const DefaultStrategyRef = builder.objectRef<DefaultStrategy>("DefaultStrategy").implement({
  description: "The strategy a project adds when a flag is enabled in an environment without strategies.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Strategy type." }),
    title: t.exposeString("title", { nullable: true, description: "Title." }),
    disabled: t.exposeBoolean("disabled", { description: "Added disabled." }),
    sortOrder: t.exposeInt("sortOrder", { description: "Sort order." }),
    parameters: t.field({ type: "JSON", description: "Parameters (strings).", resolve: (s) => s.parameters }),
    constraints: t.field({ type: "JSON", description: "Constraints.", resolve: (s) => s.constraints }),
    variants: t.field({ type: "JSON", description: "Strategy variants.", resolve: (s) => s.variants }),
    segments: t.exposeIntList("segments", { description: "Segment ids." }),
  }),
});

builder.mutationField("setProjectDefaultStrategy", (t) =>
  t.field({
    type: DefaultStrategyRef,
    description:
      "Sets the project's default strategy in one environment (or `*`: all of its environments); records default-strategy-updated.",
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      environment: t.arg.string({ required: true, description: "Environment name, or *." }),
      strategy: t.arg({ type: StrategyInput, required: true, description: "The strategy." }),
    },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.UPDATE_PROJECT, project: args.project },
    }),
    resolve: (_root, args, ctx) =>
      runWrite(ctx, (w) =>
        setDefaultStrategy(
          w,
          args.project,
          args.environment,
          args.strategy as DefaultStrategyInput,
          ctx.config.limits,
        ),
      ),
  }),
);
