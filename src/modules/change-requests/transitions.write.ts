import type { ResourceLimits } from "../../config.ts";
import { recordEvent } from "../../events/record.ts";
import {
  ForbiddenOperation,
  InvalidOperationError,
  NoAccessError,
  ValidationError,
} from "../../shared/errors.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { can } from "../access/grant-check.logic.ts";
import { PERMISSIONS, type Permission } from "../access/permissions.logic.ts";
import type { Principal } from "../access/principal.types.ts";
import { applyChanges } from "./apply.write.ts";
import { commentSchema, type StateChange, stateChangeSchema } from "./change-request.inputs.ts";
import { assertAuthor } from "./drafts.write.ts";
import {
  approverKey,
  inChangeRequest,
  isAuthor,
  type LockedChangeRequest,
  lockChangeRequest,
  recordChangeRequestEvent,
  setState,
} from "./store.write.ts";

type Deps = { w: Write; principal: Principal; limits: ResourceLimits };

function requireState(cr: LockedChangeRequest, allowed: string[], action: string) {
  if (!allowed.includes(cr.state)) {
    throw new InvalidOperationError(`A change request in state "${cr.state}" cannot be ${action}.`);
  }
}

function requireInEnvironment(principal: Principal, permission: Permission, cr: LockedChangeRequest) {
  if (!can(principal, { permission, project: cr.projectId, environment: cr.environmentName })) {
    throw new NoAccessError(permission, cr.environmentName);
  }
}

/** Adds a comment (trimmed, at most 10,000 characters); none when `text` is empty. */
async function addComment(w: Write, cr: { id: number }, text: string | null | undefined) {
  if (!text?.trim()) return;
  const comment = parseInput(commentSchema, { text });
  await w.tx.changeRequestComment.create({
    data: { changeRequestId: cr.id, text: comment.text, userId: w.actor.userId ?? 0, createdAt: w.now },
  });
}

async function markApproved(w: Write, cr: { id: number; projectId: string; environmentName: string }) {
  await setState(w, cr.id, "Approved");
  await recordChangeRequestEvent(w, "change-request-approved", cr);
}

/** Draft → In review, by the author; with no approvals required it is Approved at once. */
async function sendToReview({ w, principal }: Deps, cr: LockedChangeRequest) {
  requireState(cr, ["Draft"], "sent to review");
  assertAuthor(w, principal, cr);
  if (cr.changes.length === 0)
    throw new ValidationError("A change request without changes cannot be reviewed.");
  await enterReview(w, cr);
}

/** A Draft with changes goes to review (change-request-sent-to-review; Approved at once without approvals). */
export async function enterReview(
  w: Write,
  cr: { id: number; projectId: string; environmentName: string; minApprovals: number },
) {
  await setState(w, cr.id, "In review");
  await recordChangeRequestEvent(w, "change-request-sent-to-review", cr);
  if (cr.minApprovals <= 0) await markApproved(w, cr);
}

/**
 * One approval by an approver (APPROVE_CHANGE_REQUEST in the environment) who is not the
 * author; once per approver. A root Admin user may approve their own request (reference
 * §6.3); an API token never its own, since a script that proposes and approves is one actor.
 * Approved when approvals reach minApprovals.
 */
async function approve({ w, principal }: Deps, cr: LockedChangeRequest) {
  requireState(cr, ["In review"], "approved");
  requireInEnvironment(principal, PERMISSIONS.APPROVE_CHANGE_REQUEST, cr);
  const adminUser = principal.kind === "user" && can(principal, { permission: PERMISSIONS.ADMIN });
  if (isAuthor(cr, w.actor) && !adminUser) {
    throw new ForbiddenOperation("The author of a change request cannot approve it.");
  }
  const key = approverKey(w.actor);
  if (cr.approvals.some((a) => a.approverKey === key)) {
    throw new InvalidOperationError("You have already approved this change request.");
  }
  await w.tx.changeRequestApproval.create({
    data: { changeRequestId: cr.id, userId: w.actor.userId ?? 0, approverKey: key, createdAt: w.now },
  });
  await recordChangeRequestEvent(w, "change-request-approval-added", cr);
  if (cr.approvals.length + 1 >= cr.minApprovals) await markApproved(w, cr);
}

async function reject({ w, principal }: Deps, cr: LockedChangeRequest) {
  requireState(cr, ["In review", "Approved", "Scheduled"], "rejected");
  requireInEnvironment(principal, PERMISSIONS.APPROVE_CHANGE_REQUEST, cr);
  const userId = w.actor.userId ?? 0;
  await w.tx.changeRequestRejection.upsert({
    where: { changeRequestId_userId: { changeRequestId: cr.id, userId } },
    create: { changeRequestId: cr.id, userId, createdAt: w.now },
    update: {},
  });
  await close(w, cr, "Rejected");
  await recordChangeRequestEvent(w, "change-request-rejected", cr);
}

async function cancel({ w, principal }: Deps, cr: LockedChangeRequest) {
  requireState(cr, ["In review", "Approved", "Scheduled"], "cancelled");
  assertAuthor(w, principal, cr, true);
  await close(w, cr, "Cancelled");
  await recordChangeRequestEvent(w, "change-request-cancelled", cr);
}

async function close(w: Write, cr: LockedChangeRequest, state: "Rejected" | "Cancelled") {
  await setState(w, cr.id, state);
  await w.tx.changeRequestSchedule.deleteMany({ where: { changeRequestId: cr.id } });
}

async function apply({ w, principal, limits }: Deps, cr: LockedChangeRequest) {
  requireState(cr, ["Approved", "Scheduled"], "applied");
  requireInEnvironment(principal, PERMISSIONS.APPLY_CHANGE_REQUEST, cr);
  await applyChanges(w, cr, limits);
}

/** Approved → Scheduled, or a new time for a Scheduled one (status pending again). */
async function schedule({ w, principal }: Deps, cr: LockedChangeRequest, at: Date | null | undefined) {
  requireState(cr, ["Approved", "Scheduled"], "scheduled");
  requireInEnvironment(principal, PERMISSIONS.APPLY_CHANGE_REQUEST, cr);
  if (!at)
    throw new ValidationError("scheduledAt is required to schedule", [
      { message: "required", path: "scheduledAt" },
    ]);
  if (at <= w.now) {
    throw new ValidationError("scheduledAt must be in the future", [
      { message: "not in the future", path: "scheduledAt" },
    ]);
  }
  const fields = {
    scheduledAt: at,
    createdByUserId: w.actor.userId ?? 0,
    status: "pending",
    reason: null,
    failureReason: null,
  };
  await w.tx.changeRequestSchedule.upsert({
    where: { changeRequestId: cr.id },
    create: { changeRequestId: cr.id, ...fields },
    update: fields,
  });
  await setState(w, cr.id, "Scheduled");
  const place = inChangeRequest(cr);
  await recordEvent(w, {
    type: "change-request-scheduled",
    ...place,
    data: { ...place.data, scheduledDate: at.toISOString() },
  });
}

/**
 * Moves a change request to `state` (reference-behaviours §6.3), under a row lock so two
 * concurrent transitions never both happen. The optional comment is stored with it.
 */
export async function changeState(
  deps: Deps,
  project: string,
  id: number,
  input: StateChange,
): Promise<number> {
  const data = parseInput(stateChangeSchema, input);
  const cr = await lockChangeRequest(deps.w.tx, project, id);
  switch (data.state) {
    case "In review":
      await sendToReview(deps, cr);
      break;
    case "Approved":
      await approve(deps, cr);
      break;
    case "Rejected":
      await reject(deps, cr);
      break;
    case "Cancelled":
      await cancel(deps, cr);
      break;
    case "Applied":
      await apply(deps, cr);
      break;
    case "Scheduled":
      await schedule(deps, cr, data.scheduledAt);
      break;
  }
  await addComment(deps.w, cr, data.comment);
  return cr.id;
}

/** A comment, at any time and in any state, by anyone who may read the project. */
export async function commentOn(w: Write, project: string, id: number, text: string) {
  const cr = await lockChangeRequest(w.tx, project, id);
  const body = text.trim();
  if (!body) throw new ValidationError("A comment needs text", [{ message: "empty", path: "text" }]);
  await addComment(w, cr, body);
  return cr.id;
}
