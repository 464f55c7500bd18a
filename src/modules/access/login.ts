import type { Db } from "../../db/database.ts";
import { DomainError } from "../../shared/errors.ts";
import { verifyPassword } from "./passwords.ts";

/** Wrong username or password (401); the message does not tell which. */
export class PasswordMismatch extends DomainError {
  constructor() {
    super("UNAUTHENTICATED", "Wrong password, try again.");
  }
}

/**
 * Checks a username (or email) and password; returns the user or throws PasswordMismatch.
 * Failed attempts are counted on the user (`loginAttempts`), reset on success.
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
  if (!user?.passwordHash || !(await verifyPassword(password, user.passwordHash))) {
    if (user) await db.user.update({ where: { id: user.id }, data: { loginAttempts: { increment: 1 } } });
    throw new PasswordMismatch();
  }
  await db.user.update({ where: { id: user.id }, data: { loginAttempts: 0, seenAt: now } });
  return user;
}
