import type { Tx } from "../../db/database.ts";
import type { PersonalTokenPayload } from "../../events/payloads.ts";
import { recordEvent } from "../../events/record.ts";
import { ForbiddenOperation, NotFoundError, ValidationError } from "../../shared/errors.ts";
import { lockRow } from "../../shared/row-lock.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { hashSecret, newPersonalTokenSecret } from "../access/credentials.write.ts";
import { personalTokenInput } from "./tokens.inputs.ts";

type PatRow = { id: number; userId: number; description: string; expiresAt: Date; createdAt: Date };

function patEventData(t: PatRow): PersonalTokenPayload {
  return { id: t.id, userId: t.userId, description: t.description, expiresAt: t.expiresAt.toISOString() };
}

export function requireUserId(userId: number | null): number {
  if (userId === null || userId < 0) {
    throw new ForbiddenOperation(
      "Personal access tokens belong to users; this credential has no user behind it.",
    );
  }
  return userId;
}

/**
 * Creates a personal access token for the calling user, acting with their permissions
 * until `expiresAt`; returns the secret once (records `pat-created`).
 */
export async function createPersonalToken(w: Write, userId: number, raw: unknown) {
  const input = parseInput(personalTokenInput, raw);
  if (input.expiresAt <= w.now) throw new ValidationError("expiresAt: must be in the future");
  const secret = newPersonalTokenSecret();
  const token = await w.tx.personalAccessToken.create({
    data: {
      userId,
      description: input.description,
      expiresAt: input.expiresAt,
      secretHash: hashSecret(secret),
      createdAt: w.now,
    },
  });
  await recordEvent(w, { type: "pat-created", data: patEventData(token) });
  return { token, secret };
}

/** Deletes one of the calling user's tokens (records `pat-deleted`); others' tokens are not found. */
export async function deletePersonalToken(w: Write, userId: number, id: number) {
  await lockRow(w.tx, "PersonalAccessToken", id);
  const token = await w.tx.personalAccessToken.findFirst({ where: { id, userId } });
  if (!token) throw new NotFoundError(`Could not find personal access token with id ${id}`);
  await w.tx.personalAccessToken.delete({ where: { id } });
  await recordEvent(w, { type: "pat-deleted", preData: patEventData(token) });
}

/** A deleted user's tokens go with it, in the deletion's transaction (no `pat-deleted` each). */
export async function deletePersonalTokensOf(tx: Tx, userId: number) {
  await tx.personalAccessToken.deleteMany({ where: { userId } });
}
