import type { Db } from "../../db/database.ts";
import { DomainError } from "../../shared/errors.ts";
import { generatePassword, hashPassword, verifyPassword } from "./passwords.ts";

/** Wrong username or password (401); the message does not tell which. */
export class PasswordMismatch extends DomainError {
  constructor() {
    super("UNAUTHENTICATED", "Wrong password, try again.");
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * A hash no password matches, made with the same parameters as real ones: an unknown username
 * (or a user without a password) is checked against it, so the answer takes as long as for a
 * known one and timing does not tell which usernames exist.
 */
function unmatchableHash(): Promise<string> {
  dummyHash ??= hashPassword(generatePassword());
  return dummyHash;
}

/**
 * Checks a username (or email) and password; returns the user or throws PasswordMismatch.
 * Failed attempts are counted on the user (`loginAttempts`), reset on success. The password
 * is hashed whether or not the user exists (constant time).
 */
export async function checkPassword(db: Db, login: string, password: string, now: Date) {
  const name = login.trim();
  const user = await db.user.findFirst({
    where: {
      deletedAt: null,
      isService: false,
      OR: [{ username: name }, { email: name.toLowerCase() }],
    },
  });
  const matches = await verifyPassword(password, user?.passwordHash ?? (await unmatchableHash()));
  if (!user?.passwordHash || !matches) {
    if (user) await db.user.update({ where: { id: user.id }, data: { loginAttempts: { increment: 1 } } });
    throw new PasswordMismatch();
  }
  await db.user.update({ where: { id: user.id }, data: { loginAttempts: 0, seenAt: now } });
  return user;
}
