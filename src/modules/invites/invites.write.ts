import { randomBytes } from "node:crypto";
import type { AppBase } from "../../context.ts";
import type { Db, Tx } from "../../db/database.ts";
import type { InvitePayload } from "../../events/payloads.ts";
import { recordEvent } from "../../events/record.ts";
import { MaintenanceModeError, NotFoundError, ValidationError } from "../../shared/errors.ts";
import { lockRow } from "../../shared/row-lock.ts";
import { sqlOf } from "../../shared/sql.ts";
import { parseInput } from "../../shared/validation.ts";
import { runWrite, type Write } from "../../shared/write.ts";
import { hashSecret } from "../access/credentials.write.ts";
import { isMaintenanceMode } from "../maintenance/maintenance.read.ts";
import { imageOf } from "../users/avatars.logic.ts";
import { roleNamed, roleWithId } from "../users/role.read.ts";
import { createUser } from "../users/users.write.ts";
import { createInviteInput, signupInput, updateInviteInput } from "./invite.inputs.ts";

/** The root role of every invite link, as in Unleash (its create body has no role). */
const INVITE_ROLE = "Viewer";

/** An invite link that does not exist, is disabled or has expired (400, as Unleash). */
export class InvalidInviteError extends ValidationError {
  constructor() {
    super("The invite link is not valid: unknown, disabled or expired.", [
      { message: "The invite link is not valid", path: "token" },
    ]);
    this.name = "ValidationError";
  }
}

type TokenRow = { id: number; name: string; expiresAt: Date; enabled: boolean; roleId: number };

/** What events say about an invite link: never its secret (events reach integrations). */
function inviteEventData(t: TokenRow, roleName: string): InvitePayload {
  return { name: t.name, expiresAt: t.expiresAt.toISOString(), enabled: t.enabled, role: roleName };
}

/** The link's public URL (the sign-up page of the UI reads `invite`). */
export function inviteUrl(publicUrl: string, secret: string): string {
  const url = new URL(`${publicUrl}/new-user`);
  url.searchParams.set("invite", secret);
  return url.toString();
}

/**
 * How an admin names an invite link: by its id, or by its secret (Unleash's paths), which is
 * looked up by its hash. Exactly one of the two.
 */
export type InviteKey = { databaseId?: number | null; secret?: string | null };

/** The unique-key filter of an InviteKey; neither or both: ValidationError. */
export function inviteWhere(key: InviteKey): { id: number } | { secretHash: string } {
  const byId = typeof key.databaseId === "number";
  const bySecret = typeof key.secret === "string";
  if (byId === bySecret) {
    throw new ValidationError("Name the invite link by its databaseId or by its secret (one of them).", [
      { message: "one of databaseId and secret is required", path: "databaseId" },
    ]);
  }
  return byId ? { id: key.databaseId as number } : { secretHash: hashSecret(key.secret as string) };
}

/** The invite link named by `key`, or NotFoundError (which never repeats a secret). */
export async function inviteByKey(db: Pick<Db, "publicSignupToken">, key: InviteKey) {
  const token = await db.publicSignupToken.findUnique({ where: inviteWhere(key) });
  if (!token) throw new NotFoundError("Could not find the invite link");
  return token;
}

/**
 * Creates an invite link for the Viewer role (records `public-signup-token-created`). Answers
 * the row and its secret: the only time the secret is known, as only its hash is stored.
 */
export async function createInvite(w: Write, raw: unknown) {
  const input = parseInput(createInviteInput, raw);
  const role = await roleNamed(w.tx, INVITE_ROLE);
  const secret = randomBytes(16).toString("hex");
  const token = await w.tx.publicSignupToken.create({
    data: {
      secretHash: hashSecret(secret),
      name: input.name,
      expiresAt: input.expiresAt,
      roleId: role.id,
      createdBy: w.actor.name,
      createdByUserId: w.actor.userId,
      createdAt: w.now,
    },
  });
  await recordEvent(w, { type: "public-signup-token-created", data: inviteEventData(token, role.name) });
  return { token, secret };
}

/**
 * Changes an invite link's expiry or enabled flag (records `public-signup-token-updated`;
 * nothing when unchanged). Unknown link: NotFoundError.
 */
export async function updateInvite(w: Write, key: InviteKey, raw: unknown) {
  const input = parseInput(updateInviteInput, raw);
  const { id } = await inviteByKey(w.tx, key);
  await lockRow(w.tx, "PublicSignupToken", id);
  const before = await inviteByKey(w.tx, { databaseId: id });
  const role = await roleWithId(w.tx, before.roleId);
  const token = await w.tx.publicSignupToken.update({
    where: { id },
    data: {
      ...(input.expiresAt ? { expiresAt: input.expiresAt } : {}),
      ...(typeof input.enabled === "boolean" ? { enabled: input.enabled } : {}),
    },
  });
  await recordEvent(w, {
    type: "public-signup-token-updated",
    data: inviteEventData(token, role.name),
    preData: inviteEventData(before, role.name),
  });
  return token;
}

/**
 * The link whose secret this is, if it can be used now (exists, enabled, unexpired), else
 * InvalidInviteError. One lookup of the secret's hash whatever the outcome: an unknown, a
 * disabled and an expired link are refused alike, and the secret is never compared as text.
 */
export async function usableInvite(db: Pick<Tx, "publicSignupToken">, secret: string, now: Date) {
  const token = await db.publicSignupToken.findUnique({ where: { secretHash: hashSecret(secret) } });
  if (!token?.enabled || token.expiresAt <= now) throw new InvalidInviteError();
  return token;
}

/**
 * Creates a user with the link's role from a public sign-up (records `user-created` and
 * `public-signup-token-user-added`, actor: the system). The link must be usable; the password
 * must pass the strength rules; a taken email or username is NAME_EXISTS (409), also when two
 * sign-ups race (the unique key decides).
 */
export async function signUpWithInvite(w: Write, secret: string, raw: unknown) {
  // FOR SHARE: a concurrent disable or expiry change waits for this sign-up (and one that
  // committed first is seen); concurrent sign-ups with the same link do not wait for each other.
  await sqlOf(w.tx).query`SELECT 1 AS locked FROM "PublicSignupToken"
    WHERE "secretHash" = ${hashSecret(secret)} FOR SHARE`;
  const token = await usableInvite(w.tx, secret, w.now);
  const input = parseInput(signupInput, raw);
  const role = await roleWithId(w.tx, token.roleId);
  const user = await createUser(w, {
    email: input.email,
    name: input.name,
    password: input.password,
    username: input.username ?? null,
    rootRole: role.name,
  });
  await w.tx.publicSignupTokenUser.create({ data: { tokenId: token.id, userId: user.id, createdAt: w.now } });
  await recordEvent(w, {
    type: "public-signup-token-user-added",
    data: { userId: user.id, name: user.name, email: user.email, token: token.name },
  });
  return user;
}

/**
 * A sign-up by the holder of an invite link, who has no credential (signUpWithInvite, actor:
 * the system). Refused in maintenance mode, as GraphQL mutations are. Answers the new user as
 * Unleash's userSchema (root role by id).
 */
export async function signUpWithInviteLink(deps: AppBase, secret: string, raw: unknown) {
  if (await isMaintenanceMode(deps.db)) throw new MaintenanceModeError();
  const user = await runWrite({ ...deps, principal: null }, async (w) => {
    const created = await signUpWithInvite(w, secret, raw);
    const role = await roleNamed(w.tx, created.rootRole);
    return { ...created, roleId: role.id };
  });
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    username: user.username,
    imageUrl: imageOf(deps.config.publicUrl, user),
    rootRole: user.roleId,
    createdAt: user.createdAt.toISOString(),
    seenAt: null,
    accountType: "User",
  };
}
