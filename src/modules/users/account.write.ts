import type { Db } from "../../db/database.ts";
import { DomainError, ValidationError } from "../../shared/errors.ts";
import { lockRow } from "../../shared/row-lock.ts";
import type { Write } from "../../shared/write.ts";
import { verifyPassword } from "../access/passwords.logic.ts";
import type { Principal } from "../access/principal.types.ts";
import { replacePassword } from "./password-reset.write.ts";
import { activeUser, deleteUser } from "./users.write.ts";

/** Unleash counts a user inactive after 180 days without a login or a personal-token use. */
export const INACTIVE_AFTER_DAYS = 180;

/**
 * The old password given to change one's own password is wrong (401, as Unleash). Its detail
 * names the input, so clients tell it from a session that ended.
 */
export class OldPasswordMismatch extends DomainError {
  constructor() {
    const message = "Old password is incorrect";
    super("UNAUTHENTICATED", message, [{ message, path: "oldPassword" }]);
  }
}

export type PasswordChange = {
  password: string;
  confirmPassword?: string | null;
  oldPassword?: string | null;
};

/**
 * The calling user changes their own password (Unleash `POST /api/admin/user/change-password`):
 * `confirmPassword` must equal `password` and `oldPassword` must be right (401 otherwise); the
 * new one must be strong and not one of the last five. Ends the user's sessions. No event.
 */
export async function changeOwnPassword(w: Write, principal: Principal, input: PasswordChange) {
  if (principal.kind !== "user" || principal.userId === null || principal.userId < 0) {
    throw new ValidationError("Only a user can change their own password; an API token has none.");
  }
  if (input.confirmPassword !== input.password) {
    throw new ValidationError("password: the password and its confirmation do not match.", [
      { message: "The password and its confirmation do not match.", path: "confirmPassword" },
    ]);
  }
  if (typeof input.oldPassword !== "string") {
    throw new ValidationError('"oldPassword" is required.', [
      { message: "oldPassword is required", path: "oldPassword" },
    ]);
  }
  await lockRow(w.tx, "User", principal.userId);
  const user = await activeUser(w.tx, principal.userId);
  if (!user.passwordHash || !(await verifyPassword(input.oldPassword, user.passwordHash))) {
    throw new OldPasswordMismatch();
  }
  await replacePassword(w, user.id, input.password, { checkHistory: true });
}

/** An admin sets a user's password (must be strong); ends that user's sessions. No event. */
export async function setUserPassword(w: Write, id: number, password: string) {
  await lockRow(w.tx, "User", id);
  await activeUser(w.tx, id);
  await replacePassword(w, id, password, { checkHistory: false });
}

/** The cut-off before which a user is inactive. */
export function inactiveCutoff(now: Date): Date {
  return new Date(now.getTime() - INACTIVE_AFTER_DAYS * 86_400_000);
}

/**
 * Human users not seen (login, session or personal access token) since the cut-off, and created
 * before it when never seen; with the last use of their personal access tokens.
 */
export async function inactiveUsers(db: Pick<Db, "user">, now: Date) {
  const cutoff = inactiveCutoff(now);
  const users = await db.user.findMany({
    where: {
      deletedAt: null,
      isService: false,
      OR: [{ seenAt: { lt: cutoff } }, { seenAt: null, createdAt: { lt: cutoff } }],
      personalTokens: { none: { seenAt: { gte: cutoff } } },
    },
    include: { personalTokens: { select: { seenAt: true }, orderBy: { seenAt: "desc" }, take: 1 } },
    orderBy: { id: "asc" },
  });
  return users.map((u) => ({ ...u, patSeenAt: u.personalTokens[0]?.seenAt ?? null }));
}

/**
 * Deletes those of `ids` that are inactive users, never the caller (as Unleash); each records
 * user-deleted, all in one transaction. Other ids are skipped. Returns how many were deleted.
 */
export async function deleteInactiveUsers(w: Write, ids: number[]): Promise<number> {
  const inactive = new Set((await inactiveUsers(w.tx, w.now)).map((u) => u.id));
  const chosen = [...new Set(ids)].filter((id) => inactive.has(id) && id !== w.actor.userId);
  for (const id of chosen.sort((a, b) => a - b)) await deleteUser(w, id);
  return chosen.length;
}

/** Admins: with a password, without one, and service accounts (Vexil has none: 0). */
export async function adminCount(db: Pick<Db, "user">) {
  const where = { deletedAt: null, isService: false, rootRole: "Admin" };
  const [password, noPassword] = await Promise.all([
    db.user.count({ where: { ...where, passwordHash: { not: null } } }),
    db.user.count({ where: { ...where, passwordHash: null } }),
  ]);
  return { password, noPassword, service: 0 };
}

/** Users whose name, username or email contains `q` (case-insensitive); under 2 characters: none. */
export async function searchUsers(db: Pick<Db, "user">, q: string) {
  const term = q.trim();
  if (term.length < 2) return [];
  const contains = { contains: term, mode: "insensitive" as const };
  return db.user.findMany({
    where: {
      deletedAt: null,
      isService: false,
      OR: [{ name: contains }, { username: contains }, { email: contains }],
    },
    orderBy: { id: "asc" },
    take: 100,
  });
}
