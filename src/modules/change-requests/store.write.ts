import type { Tx } from "../../db/database.ts";
import type { EventType } from "../../events/catalogue.ts";
import { recordEvent } from "../../events/record.ts";
import type { Actor } from "../../shared/actor.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { sqlOf } from "../../shared/sql.ts";
import type { Write } from "../../shared/write.ts";
import type { ChangeRequestState } from "./change-request-states.types.ts";

const withChanges = { changes: { orderBy: { id: "asc" as const } }, schedule: true, approvals: true };

/**
 * Loads a change request for a change and locks its row (`SELECT ... FOR UPDATE`) until the
 * transaction ends, so two concurrent transitions (two approvals, two applies, the scheduler
 * and a user) run one after the other and the second sees the first's outcome.
 */
export async function lockChangeRequest(tx: Tx, project: string | null, id: number) {
  await sqlOf(tx).query`SELECT id FROM "ChangeRequest" WHERE id = ${id} FOR UPDATE`;
  const cr = await tx.changeRequest.findUnique({ where: { id }, include: withChanges });
  if (!cr || (project !== null && cr.projectId !== project)) {
    throw new NotFoundError(
      `Could not find change request ${id}${project ? ` in project "${project}"` : ""}`,
    );
  }
  return cr;
}

export type LockedChangeRequest = Awaited<ReturnType<typeof lockChangeRequest>>;
export type StoredChange = LockedChangeRequest["changes"][number];

/** Records a change-request-* event: every one carries the request id, project and environment. */
export function recordChangeRequestEvent(
  w: Write,
  type: EventType,
  cr: { id: number; projectId: string; environmentName: string },
  extra: { featureName?: string | null; data?: Record<string, unknown> } = {},
) {
  return recordEvent(w, {
    type,
    project: cr.projectId,
    environment: cr.environmentName,
    featureName: extra.featureName ?? null,
    data: { changeRequestId: cr.id, ...extra.data },
  });
}

/**
 * The author's identity: the user, or for API tokens (which all write user -42) the token.
 * A request made with one admin token is not another admin token's, nor a user's.
 */
export function authorOf(actor: Actor) {
  return { createdByUserId: actor.userId ?? 0, createdByTokenId: actor.tokenId ?? null };
}

export function isAuthor(cr: { createdByUserId: number; createdByTokenId: number | null }, actor: Actor) {
  const me = authorOf(actor);
  return cr.createdByUserId === me.createdByUserId && cr.createdByTokenId === me.createdByTokenId;
}

/** Who approves, counted once per request: `user:<id>` or `token:<id>`. */
export function approverKey(actor: Actor) {
  return actor.tokenId != null ? `token:${actor.tokenId}` : `user:${actor.userId ?? 0}`;
}

/** Sets the state; `updatedAt` moves with it. */
export function setState(w: Write, id: number, state: ChangeRequestState) {
  return w.tx.changeRequest.update({ where: { id }, data: { state, updatedAt: w.now } });
}
