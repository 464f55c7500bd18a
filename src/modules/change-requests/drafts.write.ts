import type { ResourceLimits } from "../../config.ts";
import { recordEvent } from "../../events/record.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { ForbiddenOperation, InvalidOperationError, NotFoundError } from "../../shared/errors.ts";
import type { Write } from "../../shared/write.ts";
import { can } from "../access/grant-check.logic.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import type { Principal } from "../access/principal.types.ts";
import type { ChangeAction } from "./change-request.inputs.ts";
import { checkChange, dryRun } from "./propose.write.ts";
import { takeSnapshot } from "./snapshots.read.ts";
import {
  inChangeRequest,
  isAuthor,
  type LockedChangeRequest,
  lockChangeRequest,
  proposedPayload,
  recordChangeRequestEvent,
} from "./store.write.ts";

const EDITABLE = new Set(["Draft", "In review", "Approved"]);

/**
 * Only the author changes a request's content or submits it (reference §6.3); cancelling
 * is also open to Admins (`adminToo`).
 */
export function assertAuthor(
  w: Write,
  principal: Principal,
  cr: { createdByUserId: number; createdByTokenId: number | null },
  adminToo = false,
) {
  if (isAuthor(cr, w.actor)) return;
  if (adminToo && can(principal, { permission: PERMISSIONS.ADMIN })) return;
  throw new ForbiddenOperation("Only the author of a change request may do this.");
}

async function editable(w: Write, principal: Principal, project: string, id: number) {
  const cr = await lockChangeRequest(w.tx, project, id);
  assertAuthor(w, principal, cr);
  if (!EDITABLE.has(cr.state)) {
    throw new InvalidOperationError(`A change request in state "${cr.state}" can no longer be edited.`);
  }
  return cr;
}

/** One change of a change request of a project. */
export type ChangeLocation = { project: string; id: number; changeId: number };

/** The request, locked and still editable by this principal, and its change at `at`. */
async function editableChange(w: Write, principal: Principal, at: ChangeLocation) {
  const cr = await editable(w, principal, at.project, at.id);
  const change = cr.changes.find((c) => c.id === at.changeId);
  if (!change) throw new NotFoundError(`Change request ${cr.id} has no change ${at.changeId}`);
  return { cr, change };
}

/** Editing a submitted request revokes its approvals: it goes (back) to review (reference §6.3). */
async function backToReview(w: Write, cr: LockedChangeRequest) {
  if (cr.state === "Draft") return;
  await w.tx.changeRequestApproval.deleteMany({ where: { changeRequestId: cr.id } });
  await w.tx.changeRequest.update({ where: { id: cr.id }, data: { state: "In review", updatedAt: w.now } });
}

/** Replaces one change's payload (validated as when proposed). Event: change-edited. */
export async function editChange(
  w: Write,
  principal: Principal,
  at: ChangeLocation,
  payload: unknown,
  limits: ResourceLimits,
) {
  const { cr, change: before } = await editableChange(w, principal, at);
  const scope = { project: cr.projectId, environment: cr.environmentName };
  const raw = { action: before.action as ChangeAction, feature: before.featureName, payload };
  const change = await checkChange(w, principal, scope, raw, 0);
  await dryRun(w, scope, [change], limits);
  const snapshot = await takeSnapshot(
    w.tx,
    change.action,
    { ...scope, feature: change.feature },
    change.payload,
    w.changeKinds,
  );
  await w.tx.changeRequestChange.update({
    where: { id: at.changeId },
    data: {
      payload: (change.payload ?? {}) as Prisma.InputJsonValue,
      snapshot: (snapshot ?? undefined) as Prisma.InputJsonValue | undefined,
    },
  });
  const place = inChangeRequest(cr);
  const event = await recordEvent(w, {
    type: "change-edited",
    ...place,
    featureName: before.featureName,
    data: {
      ...place.data,
      changeId: at.changeId,
      action: before.action,
      payload: proposedPayload(change.payload),
    },
  });
  if (event) await backToReview(w, cr);
}

/** Removes one change from the request. Event: change-discarded. */
export async function discardChange(w: Write, principal: Principal, at: ChangeLocation) {
  const { cr, change } = await editableChange(w, principal, at);
  await w.tx.changeRequestChange.delete({ where: { id: at.changeId } });
  const place = inChangeRequest(cr);
  await recordEvent(w, {
    type: "change-discarded",
    ...place,
    featureName: change.featureName,
    data: { ...place.data, changeId: at.changeId, action: change.action },
  });
  await backToReview(w, cr);
}

/** Deletes a Draft with all its changes. Event: change-request-discarded. */
export async function discardDraft(w: Write, principal: Principal, project: string, id: number) {
  const cr = await lockChangeRequest(w.tx, project, id);
  assertAuthor(w, principal, cr);
  if (cr.state !== "Draft") {
    throw new InvalidOperationError(`Only a Draft can be discarded; this change request is "${cr.state}".`);
  }
  await w.tx.changeRequest.delete({ where: { id } });
  await recordChangeRequestEvent(w, "change-request-discarded", cr);
}

/** Sets the title. No event type exists for it in spec section 6, so none is recorded. */
export async function setTitle(w: Write, principal: Principal, project: string, id: number, title: string) {
  const cr = await lockChangeRequest(w.tx, project, id);
  assertAuthor(w, principal, cr);
  await w.tx.changeRequest.update({ where: { id }, data: { title: title.trim() || null } });
}
