import type { Context } from "../../context.ts";
import { AuthenticationRequired, NoAccessError } from "../../shared/errors.ts";
import { can } from "../access/check.logic.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { assertDirectChangeAllowed } from "../change-requests/settings.read.ts";

/**
 * Reference-behaviours §4 check 1: in an environment where the project requires change
 * requests, direct changes need SKIP_CHANGE_REQUEST (admins hold every permission).
 */
export async function requireChangeRequestBypass(ctx: Context, project: string, environment: string) {
  await assertDirectChangeAllowed(ctx.db, ctx.principal, project, environment);
}

/**
 * Reference-behaviours §4 check 2: turning a flag on where it has no strategy adds one, so
 * the caller also needs CREATE_FEATURE_STRATEGY in that environment.
 */
export async function requireStrategyCreationWhenNone(
  ctx: Context,
  project: string,
  feature: string,
  environment: string,
) {
  const check = { permission: PERMISSIONS.CREATE_FEATURE_STRATEGY, project, environment };
  // A caller who may add strategies passes whatever the flag has: no need to count them.
  if (ctx.principal && can(ctx.principal, check)) return;
  const count = await ctx.db.featureStrategy.count({
    where: { featureName: feature, environmentName: environment },
  });
  if (count === 0) requireInEnvironment(ctx, PERMISSIONS.CREATE_FEATURE_STRATEGY, project, environment);
}

function requireInEnvironment(
  ctx: Context,
  permission: (typeof PERMISSIONS)[keyof typeof PERMISSIONS],
  project: string,
  environment: string,
) {
  if (!ctx.principal) throw new AuthenticationRequired();
  if (!can(ctx.principal, { permission, project, environment })) {
    throw new NoAccessError(permission, environment);
  }
}
