import type { Tx } from "../../db/database.ts";
import type { ChangeKinds } from "../../shared/change-kinds.ts";
import type { ChangeAction } from "./change-request.inputs.ts";
import { findConflict } from "./snapshots.read.ts";

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
export async function conflictsOf(
  tx: Tx,
  cr: ConflictSubject,
  kinds: ChangeKinds,
): Promise<ChangeConflict[]> {
  const found: ChangeConflict[] = [];
  for (const c of cr.changes) {
    const target = { project: cr.projectId, environment: cr.environmentName, feature: c.featureName };
    const conflict = await findConflict(tx, c.action as ChangeAction, target, c.payload, c.snapshot, kinds);
    if (conflict) found.push({ changeId: c.id, feature: c.featureName, action: c.action, conflict });
  }
  return found;
}
