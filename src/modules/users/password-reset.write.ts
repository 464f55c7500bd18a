import { randomBytes } from "node:crypto";
import type { AppBase } from "../../context.ts";
import type { Db } from "../../db/database.ts";
import { DomainError, NotFoundError, RateLimitError, ValidationError } from "../../shared/errors.ts";
import { parseInput } from "../../shared/validation.ts";
import { runWrite, type Write } from "../../shared/write.ts";
import { hashSecret } from "../access/credentials.write.ts";
import { hashPassword, verifyPassword } from "../access/passwords.logic.ts";
import { endSessionsOf } from "../access/sessions.write.ts";
import { assertStrongPassword } from "./password-policy.logic.ts";
import { resetLinkInput } from "./users.inputs.ts";

const TOKEN_TTL_MS = 24 * 3_600_000;
const REQUEST_INTERVAL_MS = 60_000;
/** A new password may not be one of the user's last 5. */
const HISTORY_DEPTH = 5;

/** An unknown or expired reset token (401, as Unleash's InvalidTokenError). */
export class InvalidTokenError extends DomainError {
  constructor() {
    super("UNAUTHENTICATED", "Token was not valid");
  }
}

/** A reset token already used, not yet expired (403, as Unleash's UsedTokenError). */
export class UsedTokenError extends DomainError {
  constructor(usedAt: Date) {
    super("FORBIDDEN", `Token was already used at ${usedAt.toISOString()}`);
  }
}

/** The new password is one of the user's recent ones. */
export class PasswordPreviouslyUsedError extends ValidationError {
  constructor() {
    super("password: You've previously used this password. Please use a new password.", [
      { message: "You've previously used this password. Please use a new password.", path: "password" },
    ]);
  }
}

/**
 * Makes a single-use reset link for the user with this email, valid 24 hours, and expires
 * the user's other open links. Unknown email: NotFoundError; a second request for the same
 * user within a minute: RateLimitError. Only the token's hash is stored.
 */
export async function createResetLink(w: Write, raw: unknown): Promise<{ resetPasswordUrl: string }> {
  const { id } = parseInput(resetLinkInput, raw);
  const user = await w.tx.user.findFirst({
    // By email only, as Unleash (its getByEmail): a username finds nobody.
    where: { email: id.toLowerCase(), deletedAt: null, isService: false },
  });
  if (!user) throw new NotFoundError("No user found");
  const recent = await w.tx.resetToken.findFirst({
    where: { userId: user.id, createdAt: { gt: new Date(w.now.getTime() - REQUEST_INTERVAL_MS) } },
  });
  if (recent) throw new RateLimitError("A reset link for this user was requested less than a minute ago");
  await w.tx.resetToken.updateMany({
    where: { userId: user.id, usedAt: null, expiresAt: { gt: w.now } },
    data: { expiresAt: w.now },
  });
  const token = randomBytes(32).toString("hex");
  await w.tx.resetToken.create({
    data: {
      tokenHash: hashSecret(token),
      userId: user.id,
      expiresAt: new Date(w.now.getTime() + TOKEN_TTL_MS),
      createdByUserId: w.actor.userId,
      createdAt: w.now,
    },
  });
  const url = new URL(`${w.publicUrl}/reset-password`);
  url.searchParams.set("token", token);
  return { resetPasswordUrl: url.toString() };
}

/**
 * A reset link asked for by whoever knows the account's email (`POST /auth/reset/password-email`):
 * made as by an admin, but sent nowhere, since Vexil sends no email. Unknown emails and repeated
 * requests end the same silent way, so the answer never tells whether an account exists.
 */
export async function requestResetLink(deps: AppBase, email: unknown): Promise<void> {
  if (typeof email !== "string" || !email) throw new ValidationError('"email" is a required string.');
  try {
    await runWrite({ ...deps, principal: null }, (w) => createResetLink(w, { id: email }));
    // Unleash without SMTP logs the link at debug level; Vexil never logs a credential.
    deps.logger.warn(
      "password reset link made but not sent: Vexil sends no email; an admin can hand one out (POST /api/admin/user-admin/reset-password)",
    );
  } catch (error) {
    if (!(error instanceof NotFoundError || error instanceof RateLimitError)) throw error;
  }
}

async function openToken(db: Pick<Db, "resetToken">, token: string, now: Date) {
  const row = await db.resetToken.findUnique({
    where: { tokenHash: hashSecret(token) },
    include: { user: true },
  });
  if (!row || row.user.deletedAt) throw new InvalidTokenError();
  if (row.usedAt && row.expiresAt > now) throw new UsedTokenError(row.usedAt);
  if (row.usedAt || row.expiresAt <= now) throw new InvalidTokenError();
  return row;
}

/** Who a reset link is for (the page behind the link shows it). */
export async function validateResetToken(db: Db, token: string, now: Date) {
  const row = await openToken(db, token, now);
  const creator = row.createdByUserId
    ? await db.user.findUnique({ where: { id: row.createdByUserId } })
    : null;
  return {
    id: row.user.id,
    email: row.user.email,
    name: row.user.name,
    role: row.user.rootRole,
    createdBy: creator?.username ?? creator?.email ?? creator?.name ?? null,
  };
}

/**
 * Sets a new password with a reset token: the password must be strong and not recently used;
 * the token is spent, every other open token of the user expires, and their sessions end.
 */
export async function resetPassword(w: Write, token: string, password: string): Promise<void> {
  const row = await openToken(w.tx, token, w.now);
  await replacePassword(w, row.userId, password, { checkHistory: true });
  await w.tx.resetToken.update({
    where: { tokenHash: row.tokenHash },
    data: { usedAt: w.now, expiresAt: w.now },
  });
}

/** resetPassword for the holder of a reset link, who has no other credential. */
export async function resetPasswordWithToken(
  deps: AppBase,
  token: unknown,
  password: unknown,
): Promise<void> {
  if (typeof token !== "string" || typeof password !== "string") {
    throw new ValidationError('"token" and "password" are required strings.');
  }
  await runWrite({ ...deps, principal: null }, (w) => resetPassword(w, token, password));
}

/**
 * Gives a user a new password: it must be strong (and, with `checkHistory`, none of their last
 * five); their open reset links expire and their sessions end, as in Unleash. No event: Unleash
 * records none, and a password hash never goes into one.
 */
export async function replacePassword(
  w: Write,
  userId: number,
  password: string,
  options: { checkHistory: boolean },
): Promise<void> {
  assertStrongPassword(password);
  if (options.checkHistory) {
    const history = await w.tx.passwordHistory.findMany({
      where: { userId },
      orderBy: { id: "desc" },
      take: HISTORY_DEPTH,
    });
    for (const old of history) {
      if (await verifyPassword(password, old.passwordHash)) throw new PasswordPreviouslyUsedError();
    }
  }
  const passwordHash = await hashPassword(password, w.passwordHashCost);
  await w.tx.user.update({ where: { id: userId }, data: { passwordHash, loginAttempts: 0 } });
  await w.tx.passwordHistory.create({ data: { userId, passwordHash } });
  await w.tx.resetToken.updateMany({
    where: { userId, usedAt: null, expiresAt: { gt: w.now } },
    data: { expiresAt: w.now },
  });
  await endSessionsOf(w, userId);
}
