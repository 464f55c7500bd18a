import type { ResourceLimits } from "../../config.ts";
import { InvalidOperationError } from "../../shared/errors.ts";
import type { Write } from "../../shared/write.ts";
import { changeRequestSetting } from "../feature-environments/guards.read.ts";
import { dryRun, type ProposedChange, storeChange } from "./propose.write.ts";
import { authorOf, recordChangeRequestEvent } from "./store.write.ts";
import { enterReview } from "./transitions.write.ts";

/**
 * A change request the system opens for a change it may not make itself (a release plan's next
 * milestone where change requests are required, D-26): a request of its own (no one's Draft)
 * with `title` and `changes`, checked as a proposal is (a dry run through their services), sent
 * to review at once (Approved at once where no approval is required). Approvers approve it and a
 * person applies or schedules it, as any request; its author is the writer (the system), so no
 * approver is its author. Events: change-request-created, change-added per change,
 * change-request-sent-to-review. Throws InvalidOperation where change requests are not required,
 * and what the dry run throws. Returns the request's id.
 */
export async function openChangeRequest(
  w: Write,
  scope: { project: string; environment: string },
  title: string,
  changes: ProposedChange[],
  limits: ResourceLimits,
): Promise<number> {
  const setting = await changeRequestSetting(w.tx, scope.project, scope.environment);
  if (!setting) {
    throw new InvalidOperationError(
      `Change requests are not enabled for the "${scope.environment}" environment of project "${scope.project}"`,
    );
  }
  await dryRun(w, scope, changes, limits);
  const cr = await w.tx.changeRequest.create({
    data: {
      projectId: scope.project,
      environmentName: scope.environment,
      state: "Draft",
      title,
      minApprovals: setting.requiredApprovals,
      ...authorOf(w.actor),
      createdAt: w.now,
      updatedAt: w.now,
    },
  });
  await recordChangeRequestEvent(w, "change-request-created", cr);
  for (const change of changes) await storeChange(w, cr, change);
  await enterReview(w, cr);
  return cr.id;
}
