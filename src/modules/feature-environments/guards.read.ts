import type { Context } from "../../context.ts";
import type { Tx } from "../../db/database.ts";
import { AuthenticationRequired, DomainError, NoAccessError } from "../../shared/errors.ts";
import { sqlOf } from "../../shared/sql.ts";
import type { Write } from "../../shared/write.ts";
import { can } from "../access/grant-check.logic.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import type { Principal } from "../access/principal.types.ts";

// The change-request guards of direct changes to flags (this module's, and archiving in
// features, removing a project's environment, restoring). They read the settings of the
// change-requests module (its table) here, below the modules they guard: change-requests
// applies its changes through those modules. The guards take a Write only to see whether it
// applies a change request; they never write.

/** The setting row for (project, environment), or null when change requests are off there. */
export function changeRequestSetting(tx: Tx, project: string, environment: string) {
  return tx.changeRequestSetting.findUnique({
    where: { projectId_environmentName: { projectId: project, environmentName: environment } },
  });
}

/**
 * The guard every direct change to a flag's environment calls (reference-behaviours §4
 * check 1): where the project requires change requests, only callers holding
 * SKIP_CHANGE_REQUEST (Admins hold everything) may change it directly. A change applied from
 * a change request (a Write grouped under `change-request`) is the reviewed path and passes.
 */
export async function assertDirectChangeAllowed(
  wOrTx: Write | Tx,
  principal: Principal | null,
  project: string,
  environment: string,
): Promise<void> {
  const isWrite = "tx" in wOrTx && "groupType" in wOrTx;
  if (isWrite && wOrTx.groupType === "change-request") return;
  // A caller who may skip change requests passes whatever the setting: no need to read it.
  const check = { permission: PERMISSIONS.SKIP_CHANGE_REQUEST, project, environment };
  if (principal && can(principal, check)) return;
  const tx = isWrite ? wOrTx.tx : (wOrTx as Tx);
  if (!(await changeRequestSetting(tx, project, environment))) return;
  throw new DomainError(
    "FORBIDDEN",
    `You don't have the required permissions to perform this operation. To perform this action, you need the "SKIP_CHANGE_REQUEST" permission. The "${environment}" environment of project "${project}" requires change requests: propose this change with a change request instead.`,
    undefined,
    { permissions: [PERMISSIONS.SKIP_CHANGE_REQUEST] },
  );
}

/** Archiving a flag touches every environment: any environment requiring change requests guards it. */
export async function assertDirectProjectChangeAllowed(
  wOrTx: Write | Tx,
  principal: Principal | null,
  project: string,
): Promise<void> {
  const isWrite = "tx" in wOrTx && "groupType" in wOrTx;
  if (isWrite && wOrTx.groupType === "change-request") return;
  const tx = isWrite ? wOrTx.tx : (wOrTx as Tx);
  const settings = await tx.changeRequestSetting.findMany({ where: { projectId: project } });
  for (const s of settings) await assertDirectChangeAllowed(tx, principal, project, s.environmentName);
}

/**
 * A segment change alters every strategy that uses it at once (D-26): where one of those
 * strategies is in an environment requiring change requests, the change needs
 * SKIP_CHANGE_REQUEST there, or goes through a change request (`updateSegment`). The segment
 * row is locked FOR UPDATE first, which a strategy taking the segment (its foreign key's KEY
 * SHARE) waits for: such a strategy is either seen here or comes after this change.
 */
export async function assertSegmentChangeAllowed(
  w: Write,
  principal: Principal | null,
  segmentId: number,
): Promise<void> {
  if (w.groupType === "change-request") return;
  await sqlOf(w.tx).query`SELECT 1 AS locked FROM "Segment" WHERE id = ${segmentId} FOR UPDATE`;
  const uses = await w.tx.featureStrategy.findMany({
    where: { segments: { some: { segmentId } } },
    select: { projectId: true, environmentName: true },
    distinct: ["projectId", "environmentName"],
  });
  if (uses.length === 0) return;
  const protectedUses = await w.tx.changeRequestSetting.findMany({
    where: { OR: uses.map((u) => ({ projectId: u.projectId, environmentName: u.environmentName })) },
    orderBy: [{ projectId: "asc" }, { environmentName: "asc" }],
  });
  for (const { projectId: project, environmentName: environment } of protectedUses) {
    const check = { permission: PERMISSIONS.SKIP_CHANGE_REQUEST, project, environment };
    if (principal && can(principal, check)) continue;
    throw new DomainError(
      "FORBIDDEN",
      `Segment ${segmentId} is used by flags in the "${environment}" environment of project "${project}", which requires change requests: propose this change with a change request there (action "updateSegment"), or ask for the "SKIP_CHANGE_REQUEST" permission.`,
      undefined,
      { permissions: [PERMISSIONS.SKIP_CHANGE_REQUEST] },
    );
  }
}

/**
 * A parent link is one for every environment of the flag (D-26): where any environment of
 * the project requires change requests, adding or removing one needs SKIP_CHANGE_REQUEST
 * there, or goes through a change request (`addDependency`, `deleteDependency`), as Unleash.
 */
export async function assertDependencyChangeAllowed(
  w: Write,
  principal: Principal | null,
  project: string,
): Promise<void> {
  if (w.groupType === "change-request") return;
  const settings = await w.tx.changeRequestSetting.findMany({
    where: { projectId: project },
    orderBy: { environmentName: "asc" },
  });
  for (const { environmentName: environment } of settings) {
    const check = { permission: PERMISSIONS.SKIP_CHANGE_REQUEST, project, environment };
    if (principal && can(principal, check)) continue;
    throw new DomainError(
      "FORBIDDEN",
      `Dependencies of a flag apply in every environment, and the "${environment}" environment of project "${project}" requires change requests: propose this change with a change request there (action "addDependency" or "deleteDependency"), or ask for the "SKIP_CHANGE_REQUEST" permission.`,
      undefined,
      { permissions: [PERMISSIONS.SKIP_CHANGE_REQUEST] },
    );
  }
}

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
