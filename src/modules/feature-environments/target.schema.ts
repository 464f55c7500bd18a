import { builder } from "../../builder.ts";
import type { Context } from "../../context.ts";
import type { PERMISSIONS } from "../access/permissions.logic.ts";
import { requireChangeRequestBypass } from "./guards.read.ts";
import type { EnvironmentTarget } from "./strategy-record.read.ts";

/** The arguments of the mutations that change a flag in one environment of a project. */
export const targetArgs = builder.args((t) => ({
  project: t.string({ required: true, description: "Project id." }),
  feature: t.string({ required: true, description: "Flag name." }),
  environment: t.string({ required: true, description: "Environment name." }),
}));

type TargetArgs = { project: string; feature: string; environment: string };

export const target = (args: TargetArgs): EnvironmentTarget => ({
  project: args.project,
  feature: args.feature,
  environment: args.environment,
});

/** The `authScopes` of such a mutation: `permission` in the project and environment of its arguments. */
export const scope =
  (permission: (typeof PERMISSIONS)[keyof typeof PERMISSIONS]) =>
  (_root: unknown, args: { project: string; environment: string }) => ({
    permission: { permission, project: args.project, environment: args.environment },
  });

export const featureEnvironmentKey = (args: TargetArgs) => ({
  featureName_environmentName: { featureName: args.feature, environmentName: args.environment },
});

/** Direct changes where change requests are required need SKIP_CHANGE_REQUEST (reference §4, check 1). */
export const requireDirectChange = (ctx: Context, args: { project: string; environment: string }) =>
  requireChangeRequestBypass(ctx, args.project, args.environment);
