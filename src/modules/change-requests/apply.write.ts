import type { ResourceLimits } from "../../config.ts";
import type { Tx } from "../../db/database.ts";
import { ConflictError } from "../../shared/errors.ts";
import type { Write } from "../../shared/write.ts";
import { APPLIERS } from "./appliers.write.ts";
import type { ChangeAction } from "./change-request.inputs.ts";
import { findConflict } from "./snapshots.read.ts";
import { type LockedChangeRequest, recordChangeRequestEvent, setState } from "./store.write.ts";

export type ChangeConflict = { changeId: number; feature: string | null; action: string; conflict: string };

type ConflictSubject = {
  projectId: string;
  environmentName: string;
  changes: {
    id: number;
    action: string;
    featureName: string | null;
    payload: unknown;
    snapshot: unknown;
  }[];
};

/** Every change of the request that can no longer be applied as it was made, with why. */
export async function conflictsOf(tx: Tx, cr: ConflictSubject): Promise<ChangeConflict[]> {
  const found: ChangeConflict[] = [];
  for (const c of cr.changes) {
    const target = { project: cr.projectId, environment: cr.environmentName, feature: c.featureName };
    const conflict = await findConflict(tx, c.action as ChangeAction, target, c.payload, c.snapshot);
    if (conflict) found.push({ changeId: c.id, feature: c.featureName, action: c.action, conflict });
  }
  return found;
}

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
  const conflicts = await conflictsOf(w.tx, cr);
  if (conflicts.length > 0) throw conflictError(cr, conflicts);
  for (const change of cr.changes) {
    const applier = APPLIERS[change.action as ChangeAction];
    const target = { project: cr.projectId, environment: cr.environmentName, feature: change.featureName };
    await applier(w, target, change.payload, limits);
  }
  await setState(w, cr.id, "Applied");
  await w.tx.changeRequestSchedule.deleteMany({ where: { changeRequestId: cr.id } });
  await recordChangeRequestEvent(w, "change-request-applied", cr);
}
