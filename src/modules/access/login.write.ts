import type { AppDeps } from "../../context.ts";
import type { Db } from "../../db/database.ts";
import { DomainError, InvalidOperationError, ValidationError } from "../../shared/errors.ts";
import type { UserRow } from "../users/users.write.ts";
import type { LoginLimiter } from "./login-limits.cache.ts";
import { generatePassword, hashPassword, needsRehash, verifyPassword } from "./passwords.logic.ts";
import { createSession, type NewSession } from "./sessions.write.ts";

/** Wrong username or password (401); the message does not tell which. */
export class PasswordMismatch extends DomainError {
  constructor() {
    super("UNAUTHENTICATED", "Wrong password, try again.");
  }
}

const dummyHashes = new Map<number, Promise<string>>();

/**
 * A hash no password matches, made with the same parameters as real ones: an unknown username
 * (or a user without a password) is checked against it, so the answer takes as long as for a
 * known one and timing does not tell which usernames exist.
 */
function unmatchableHash(cost: number): Promise<string> {
  let hash = dummyHashes.get(cost);
  if (!hash) {
    hash = hashPassword(generatePassword(), cost);
    dummyHashes.set(cost, hash);
  }
  return hash;
}

/**
 * Checks a username (or email) and password; returns the user or throws PasswordMismatch.
 * Failed attempts are counted on the user (`loginAttempts`), reset on success. The password
 * is hashed whether or not the user exists (constant time). A hash made with another cost than
 * `cost` is replaced by one made with it.
 */
export async function checkPassword(db: Db, login: string, password: string, now: Date, cost: number) {
  const name = login.trim();
  const user = await db.user.findFirst({
    where: {
      deletedAt: null,
      isService: false,
      OR: [{ username: name }, { email: name.toLowerCase() }],
    },
  });
  const matches = await verifyPassword(password, user?.passwordHash ?? (await unmatchableHash(cost)));
  if (!user?.passwordHash || !matches) {
    if (user) await db.user.update({ where: { id: user.id }, data: { loginAttempts: { increment: 1 } } });
    throw new PasswordMismatch();
  }
  await db.user.update({ where: { id: user.id }, data: { loginAttempts: 0, seenAt: now } });
  if (needsRehash(user.passwordHash, cost)) {
    // Only if the password is still the one checked: a change meanwhile must not be undone.
    await db.user.updateMany({
      where: { id: user.id, passwordHash: user.passwordHash },
      data: { passwordHash: await hashPassword(password, cost) },
    });
  }
  return user;
}

/** What a password login answers (Unleash's user), next to the session it opened. */
export type PasswordLogin = {
  user: UserRow;
  session: NewSession;
};

/**
 * Logs a user in with `{username, password}` (`readBody` reads it once password login is
 * known to be on): INVALID_OPERATION when password login is disabled, VALIDATION without both
 * strings. The attempt is counted before the password is checked, per client `address` and
 * per account from that address (login-limits.cache.ts); past a limit, LoginRateLimited. On
 * success the account's count is cleared and a session is opened.
 */
export async function logInWithPassword(
  deps: Pick<AppDeps, "db" | "now" | "config">,
  limiter: LoginLimiter,
  address: string,
  readBody: () => Promise<Record<string, unknown>>,
): Promise<PasswordLogin> {
  if (deps.config.auth.disablePasswordAuth) throw new InvalidOperationError("Password login is disabled.");
  const { username, password } = await readBody();
  if (typeof username !== "string" || typeof password !== "string" || !username) {
    throw new ValidationError('"username" and "password" are required strings.');
  }
  // Counted before the (deliberately slow) hash: concurrent guesses cannot all get through.
  await limiter.take(address, username);
  const now = deps.now();
  const user = await checkPassword(deps.db, username, password, now, deps.config.auth.passwordHashCost);
  await limiter.succeeded(address, username);
  const session = await createSession(deps.db, user.id, now, deps.config.auth.sessionTtlMs);
  const { id, name, email, imageUrl, rootRole } = user;
  return { user: { id, name, email, username: user.username, imageUrl, rootRole }, session };
}
