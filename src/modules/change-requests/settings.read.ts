import type { Tx } from "../../db/database.ts";
import { DomainError, NotFoundError } from "../../shared/errors.ts";
import type { Write } from "../../shared/write.ts";
import { can } from "../access/check.logic.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import type { Principal } from "../access/principal.types.ts";

// The guards take a Write only to see whether it applies a change request; they never write.

/** Per environment of a project: are change requests required, and how many approvals. */
export type ChangeRequestConfig = {
  environment: string;
  type: string;
  changeRequestEnabled: boolean;
  requiredApprovals: number | null;
};

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

export async function projectChangeRequestConfig(tx: Tx, project: string): Promise<ChangeRequestConfig[]> {
  const found = await tx.project.findUnique({
    where: { id: project },
    include: {
      environments: { include: { environment: true } },
      changeRequestSettings: true,
    },
  });
  if (!found) throw new NotFoundError(`Could not find project "${project}"`);
  const byEnv = new Map(found.changeRequestSettings.map((s) => [s.environmentName, s.requiredApprovals]));
  return found.environments
    .map((pe) => pe.environment)
    .sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name))
    .map((env) => ({
      environment: env.name,
      type: env.type,
      changeRequestEnabled: byEnv.has(env.name),
      requiredApprovals: byEnv.get(env.name) ?? null,
    }));
}
