import type { Tx } from "../../db/database.ts";
import type { UserPayload } from "../../events/payloads.ts";
import { recordEvent } from "../../events/record.ts";
import { NameExistsError, NotFoundError, ValidationError } from "../../shared/errors.ts";
import { lockRow } from "../../shared/row-lock.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { hashPassword } from "../access/passwords.logic.ts";
import { endSessionsOf } from "../access/sessions.write.ts";
import { deletePersonalTokensOf } from "../tokens/personal-tokens.write.ts";
import { assertStrongPassword } from "./password-policy.logic.ts";
import {
  type CreateUserInput,
  createUserInput,
  type UpdateUserInput,
  updateUserInput,
} from "./users.inputs.ts";

/** A user as events and login answers show it. */
export type UserRow = {
  id: number;
  name: string | null;
  email: string | null;
  username: string | null;
  imageUrl: string | null;
  rootRole: string;
};

/** What events say about a user: never the password hash. */
export function userEventData(u: UserRow): UserPayload {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    username: u.username,
    imageUrl: u.imageUrl,
    rootRole: u.rootRole,
  };
}

/** A human, not deleted user, or NotFoundError. */
export async function activeUser(tx: Tx, id: number) {
  const user = await tx.user.findFirst({ where: { id, deletedAt: null, isService: false } });
  if (!user) throw new NotFoundError(`Could not find user with id ${id}`);
  return user;
}

/** The root role named `nameOrId`, or whose id it is (Unleash scripts send 1, 2, 3); else VALIDATION. */
async function rootRoleName(tx: Tx, nameOrId: string): Promise<string> {
  const byName = await tx.role.findUnique({ where: { name: nameOrId } });
  const role =
    byName ??
    (/^\d{1,9}$/.test(nameOrId) ? await tx.role.findUnique({ where: { id: Number(nameOrId) } }) : null);
  if (!role || (role.type !== "root" && role.type !== "root-custom")) {
    throw new ValidationError(`rootRole: "${nameOrId}" is not a root role`, [
      { message: `rootRole must be a root role; got "${nameOrId}"`, path: "rootRole" },
    ]);
  }
  return role.name;
}

async function assertFree(
  tx: Tx,
  field: "email" | "username",
  value: string | null | undefined,
  self?: number,
) {
  if (!value) return;
  const taken = await tx.user.findFirst({
    where: { [field]: value, ...(self ? { id: { not: self } } : {}) },
  });
  if (taken) throw new NameExistsError(`A user with ${field} "${value}" already exists`);
}

/** Creates a user (records `user-created`). A given password must pass the strength rules. */
export async function createUser(w: Write, raw: CreateUserInput) {
  const input = parseInput(createUserInput, raw);
  const rootRole = await rootRoleName(w.tx, input.rootRole);
  await assertFree(w.tx, "email", input.email);
  await assertFree(w.tx, "username", input.username);
  if (input.password) assertStrongPassword(input.password);
  const passwordHash = input.password ? await hashPassword(input.password, w.passwordHashCost) : null;
  const user = await w.tx.user.create({
    data: {
      email: input.email ?? null,
      username: input.username ?? null,
      name: input.name ?? null,
      imageUrl: input.imageUrl ?? null,
      rootRole,
      passwordHash,
      createdAt: w.now,
    },
  });
  if (passwordHash) await w.tx.passwordHistory.create({ data: { userId: user.id, passwordHash } });
  await recordEvent(w, { type: "user-created", data: userEventData(user) });
  return user;
}

/** Changes a user's profile or root role (records `user-updated`; nothing when unchanged). */
export async function updateUser(w: Write, id: number, raw: UpdateUserInput) {
  await lockRow(w.tx, "User", id);
  const input = parseInput(updateUserInput, raw);
  const before = await activeUser(w.tx, id);
  const rootRole = input.rootRole ? await rootRoleName(w.tx, input.rootRole) : undefined;
  await assertFree(w.tx, "email", input.email, id);
  const user = await w.tx.user.update({
    where: { id },
    data: {
      ...(input.email !== undefined ? { email: input.email } : {}),
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.imageUrl !== undefined ? { imageUrl: input.imageUrl } : {}),
      ...(rootRole ? { rootRole } : {}),
    },
  });
  await recordEvent(w, { type: "user-updated", data: userEventData(user), preData: userEventData(before) });
  return user;
}

/**
 * Deletes a user (records `user-deleted`): the row stays for the audit trail, but its login
 * names and password are cleared and its sessions, tokens and project roles are removed.
 */
export async function deleteUser(w: Write, id: number) {
  await lockRow(w.tx, "User", id);
  const before = await activeUser(w.tx, id);
  await endSessionsOf(w, id);
  await deletePersonalTokensOf(w.tx, id);
  await w.tx.projectMember.deleteMany({ where: { userId: id } });
  await w.tx.resetToken.deleteMany({ where: { userId: id } });
  const user = await w.tx.user.update({
    where: { id },
    data: { deletedAt: w.now, email: null, username: null, passwordHash: null },
  });
  await recordEvent(w, { type: "user-deleted", preData: userEventData(before) });
  return user;
}
