import type { ResourceLimits } from "../../config.ts";
import { ConflictError } from "../../shared/errors.ts";
import type { Write } from "../../shared/write.ts";
import { applierOf } from "./appliers.write.ts";
import type { ChangeAction } from "./change-request.inputs.ts";
import { type ChangeConflict, conflictsOf } from "./conflicts.read.ts";
import { type LockedChangeRequest, recordChangeRequestEvent, setState } from "./store.write.ts";

export function conflictError(cr: { id: number }, conflicts: ChangeConflict[]) {
  return new ConflictError(
    `Change request ${cr.id} cannot be applied: ${conflicts.length} of its changes conflict with the current state.`,
    conflicts.map((c) => ({
      message: `${c.action}${c.feature ? ` on "${c.feature}"` : ""} (change ${c.changeId}): ${c.conflict}`,
      path: `changes.${c.changeId}`,
    })),
  );
}

/**
 * Applies every change of the (locked) request in the caller's transaction, in the order they
 * were made, through the same services as direct changes; their events share the Write's
 * group (`change-request` + id). Refused with 409 when any change conflicts. Then the
 * request is Applied (change-request-applied).
 */
export async function applyChanges(w: Write, cr: LockedChangeRequest, limits: ResourceLimits) {
  const conflicts = await conflictsOf(w.tx, cr, w.changeKinds);
  if (conflicts.length > 0) throw conflictError(cr, conflicts);
  for (const change of cr.changes) {
    const applier = applierOf(w, change.action as ChangeAction);
    const target = { project: cr.projectId, environment: cr.environmentName, feature: change.featureName };
    await applier(w, target, change.payload, limits);
  }
  await setState(w, cr.id, "Applied");
  await w.tx.changeRequestSchedule.deleteMany({ where: { changeRequestId: cr.id } });
  await recordChangeRequestEvent(w, "change-request-applied", cr);
}
