import { z } from "zod";
import type { Tx } from "../../db/database.ts";
import type { EventData, EventType } from "../../events/catalogue.ts";
import type { ChangeRequestPayload, JsonPayload } from "../../events/payloads.ts";
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

type ChangeRequestRef = { id: number; projectId: string; environmentName: string };

/** Where the events of a change request happen, and the request id every one of them carries. */
export function inChangeRequest(cr: ChangeRequestRef) {
  return { project: cr.projectId, environment: cr.environmentName, data: { changeRequestId: cr.id } };
}

/** The change-request events that carry nothing but the request id. */
type ChangeRequestStep = {
  [T in EventType]: EventData<T> extends ChangeRequestPayload
    ? ChangeRequestPayload extends EventData<T>
      ? T
      : never
    : never;
}[EventType];

/** A proposed change's payload as its events keep it: the request's JSON (none: `{}`). */
export function proposedPayload(payload: unknown): JsonPayload {
  return z.json().parse(payload ?? {});
}

/** Records a change-request event that carries the request id alone. */
export function recordChangeRequestEvent(w: Write, type: ChangeRequestStep, cr: ChangeRequestRef) {
  return recordEvent(w, { type, ...inChangeRequest(cr) });
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
