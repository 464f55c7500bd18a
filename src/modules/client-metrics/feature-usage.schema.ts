import { builder } from "../../builder.ts";
import { type EnvironmentUsage, usageByEnvironment } from "./application-summary.logic.ts";
import { featureMetrics, sinceHoursBack } from "./client-metrics.read.ts";

const EnvironmentUsageRef = builder.objectRef<EnvironmentUsage>("FeatureEnvironmentUsage").implement({
  description: "A flag's evaluations in one environment during the current hour, every application summed.",
  fields: (t) => ({
    environment: t.exposeString("environment", { description: "Environment name." }),
    hour: t.field({ type: "DateTime", description: "Start of the hour.", resolve: (u) => u.hour }),
    yes: t.exposeInt("yes", { description: "Evaluations to enabled." }),
    no: t.exposeInt("no", { description: "Evaluations to disabled." }),
  }),
});

builder.queryField("featureLastHourUsage", (t) =>
  t.field({
    type: [EnvironmentUsageRef],
    description:
      "The current hour of a flag's SDK metrics summed per environment, by environment name (environments " +
      "with no metrics left out). Empty for an unknown flag.",
    authScopes: { authenticated: true },
    args: { name: t.arg.string({ required: true, description: "Flag name." }) },
    resolve: async (_root, args, ctx) =>
      usageByEnvironment(await featureMetrics(ctx.db, args.name, sinceHoursBack(ctx.now(), 1), {})),
  }),
);
