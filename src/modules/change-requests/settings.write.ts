import { recordEvent } from "../../events/record.ts";
import { NoAccessError, NotFoundError } from "../../shared/errors.ts";
import { lockRow } from "../../shared/row-lock.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { can } from "../access/grant-check.logic.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import type { Principal } from "../access/principal.types.ts";
import { changeRequestSetting } from "../feature-environments/guards.read.ts";
import { configSchema } from "./change-request.inputs.ts";
import type { ChangeRequestConfig } from "./settings.read.ts";

/**
 * Lowering the protection of an environment (off, or fewer approvals) is itself a way around
 * review: only an Admin may do it, so an Editor or Owner cannot switch review off, change the
 * flag, and switch it back on.
 */
function assertMayLower(
  principal: Principal,
  before: { requiredApprovals: number } | null,
  after: { changeRequestsEnabled: boolean; requiredApprovals: number },
) {
  if (!before) return;
  const lowers = !after.changeRequestsEnabled || after.requiredApprovals < before.requiredApprovals;
  if (lowers && !can(principal, { permission: PERMISSIONS.ADMIN })) {
    throw new NoAccessError(PERMISSIONS.ADMIN);
  }
}

/**
 * Turns change requests on or off for one environment of a project and sets the approvals
 * they need (0 to 10). Open change requests keep the minApprovals they were created with.
 * Lowering the protection needs ADMIN. Event: change-request-configuration-updated.
 */
export async function updateChangeRequestConfig(
  w: Write,
  principal: Principal,
  project: string,
  environment: string,
  input: unknown,
): Promise<ChangeRequestConfig> {
  await lockRow(w.tx, "Project", project);
  const data = parseInput(configSchema, input);
  const link = await w.tx.projectEnvironment.findUnique({
    where: { projectId_environmentName: { projectId: project, environmentName: environment } },
    include: { environment: true },
  });
  if (!link) throw new NotFoundError(`Environment "${environment}" is not enabled for project "${project}"`);
  const before = await changeRequestSetting(w.tx, project, environment);
  assertMayLower(principal, before, data);
  const where = { projectId_environmentName: { projectId: project, environmentName: environment } };
  if (data.changeRequestsEnabled) {
    await w.tx.changeRequestSetting.upsert({
      where,
      create: { projectId: project, environmentName: environment, requiredApprovals: data.requiredApprovals },
      update: { requiredApprovals: data.requiredApprovals },
    });
  } else if (before) {
    await w.tx.changeRequestSetting.delete({ where });
  }
  const state = (enabled: boolean, approvals: number | null) => ({
    changeRequestsEnabled: enabled,
    requiredApprovals: enabled ? approvals : null,
  });
  await recordEvent(w, {
    type: "change-request-configuration-updated",
    project,
    environment,
    data: state(data.changeRequestsEnabled, data.requiredApprovals),
    preData: state(Boolean(before), before?.requiredApprovals ?? null),
  });
  return {
    environment,
    type: link.environment.type,
    changeRequestEnabled: data.changeRequestsEnabled,
    requiredApprovals: data.changeRequestsEnabled ? data.requiredApprovals : null,
  };
}
