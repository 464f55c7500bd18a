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

/** The active, non-service user a login names (username, or email in any case), or null. */
async function loginUser(db: Db, login: string) {
  const name = login.trim();
  return db.user.findFirst({
    where: { deletedAt: null, isService: false, OR: [{ username: name }, { email: name.toLowerCase() }] },
  });
}

type LoginUser = Awaited<ReturnType<typeof loginUser>>;

/**
 * Checks a password against the user a login named (null: nobody); returns the user or throws
 * PasswordMismatch. The password is hashed whether or not the user exists, and a wrong one
 * costs the same time either way: the failure is counted on a known user (`loginAttempts`)
 * without the answer waiting for that write, so timing does not tell which users exist. A
 * hash made with another cost than `cost` is replaced by one made with it.
 */
export async function checkPassword(
  deps: Pick<AppDeps, "db" | "logger">,
  user: LoginUser,
  password: string,
  now: Date,
  cost: number,
) {
  const db = deps.db;
  const matches = await verifyPassword(password, user?.passwordHash ?? (await unmatchableHash(cost)));
  if (!user?.passwordHash || !matches) {
    if (user) {
      db.user
        .update({ where: { id: user.id }, data: { loginAttempts: { increment: 1 } } })
        .catch((error) => deps.logger.warn("login attempt not counted", { error: String(error) }));
    }
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

/**
 * The account a login attempt counts against: the user it names, however named (username or
 * email, any case), so alternating the two shares one count; an unknown login by its text.
 */
function accountKey(user: LoginUser, login: string): string {
  return user ? `user:${user.id}` : `login:${login.trim().toLowerCase()}`;
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
 * per account (the user named, `accountKey`) from that address (login-limits.cache.ts); past a
 * limit, LoginRateLimited. On
 * success the account's count is cleared and a session is opened.
 */
export async function logInWithPassword(
  deps: Pick<AppDeps, "db" | "now" | "config" | "logger">,
  limiter: LoginLimiter,
  address: string,
  readBody: () => Promise<Record<string, unknown>>,
): Promise<PasswordLogin> {
  if (deps.config.auth.disablePasswordAuth) throw new InvalidOperationError("Password login is disabled.");
  const { username, password } = await readBody();
  if (typeof username !== "string" || typeof password !== "string" || !username) {
    throw new ValidationError('"username" and "password" are required strings.');
  }
  const named = await loginUser(deps.db, username);
  const account = accountKey(named, username);
  // Counted before the (deliberately slow) hash: concurrent guesses cannot all get through.
  await limiter.take(address, account);
  const now = deps.now();
  const user = await checkPassword(deps, named, password, now, deps.config.auth.passwordHashCost);
  await limiter.succeeded(address, account);
  const session = await createSession(deps.db, user.id, now, deps.config.auth.sessionTtlMs);
  const { id, name, email, imageUrl, rootRole } = user;
  return { user: { id, name, email, username: user.username, imageUrl, rootRole }, session };
}
