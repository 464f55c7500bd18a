import type { Tx } from "../../db/database.ts";
import type { RolePayload } from "../../events/payloads.ts";
import { recordEvent } from "../../events/record.ts";
import {
  ConflictError,
  InvalidOperationError,
  NameExistsError,
  NotFoundError,
  ValidationError,
} from "../../shared/errors.ts";
import { lockRow } from "../../shared/row-lock.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { isPermission, PREDEFINED_ROLE_NAMES, permissionType } from "../access/permissions.logic.ts";
import { environmentExists } from "../environments/environment.read.ts";
import { roleInput } from "./users.inputs.ts";

type RoleWithPermissions = {
  id: number;
  name: string;
  description: string | null;
  type: string;
  permissions: { permissionName: string; environmentName: string }[];
};

const withPermissions = {
  permissions: { orderBy: [{ permissionName: "asc" as const }, { environmentName: "asc" as const }] },
};

function roleEventData(role: RoleWithPermissions): RolePayload {
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    type: role.type,
    permissions: role.permissions.map((p) => ({
      name: p.permissionName,
      environment: p.environmentName || null,
    })),
  };
}

/** Checks each permission name, and that environments are given only where they mean something. */
async function permissionRows(tx: Tx, input: ReturnType<typeof parseRole>) {
  const rows: { permissionName: string; environmentName: string }[] = [];
  for (const [i, p] of input.permissions.entries()) {
    if (!isPermission(p.name)) {
      throw new ValidationError(`permissions.${i}.name: unknown permission "${p.name}"`, [
        { message: `unknown permission "${p.name}"`, path: `permissions.${i}.name` },
      ]);
    }
    const type = permissionType(p.name);
    if (input.type === "root-custom" && type !== "root") {
      throw new ValidationError(
        `permissions.${i}.name: "${p.name}" applies to projects; use a custom (project) role`,
      );
    }
    if (input.type === "custom" && type === "root") {
      throw new ValidationError(
        `permissions.${i}.name: "${p.name}" is a root permission and cannot be part of a project role; use a root-custom role`,
        [{ message: "a root permission cannot be part of a project role", path: `permissions.${i}.name` }],
      );
    }
    if (p.environment) {
      if (type !== "environment") {
        throw new ValidationError(`permissions.${i}.environment: "${p.name}" is not scoped to environments`);
      }
      if (!(await environmentExists(tx, p.environment))) {
        throw new NotFoundError(`Could not find environment ${p.environment}`);
      }
    }
    rows.push({ permissionName: p.name, environmentName: p.environment ?? "" });
  }
  return rows;
}

const parseRole = (raw: unknown) => parseInput(roleInput, raw);

async function customRole(tx: Tx, id: number) {
  const role = await tx.role.findUnique({ where: { id }, include: withPermissions });
  if (!role) throw new NotFoundError(`Could not find role with id ${id}`);
  if (PREDEFINED_ROLE_NAMES.has(role.name)) {
    throw new InvalidOperationError(`The predefined role ${role.name} cannot be changed`);
  }
  return role;
}

async function assertNameFree(tx: Tx, name: string, self?: number) {
  const taken = await tx.role.findUnique({ where: { name } });
  if (taken && taken.id !== self) throw new NameExistsError(`A role named "${name}" already exists`);
}

/** Creates a custom role made of named permissions (records `role-created`). */
export async function createRole(w: Write, raw: unknown) {
  const input = parseRole(raw);
  await assertNameFree(w.tx, input.name);
  const rows = await permissionRows(w.tx, input);
  const role = await w.tx.role.create({
    data: {
      name: input.name,
      description: input.description ?? null,
      type: input.type,
      createdAt: w.now,
      permissions: { create: rows },
    },
    include: withPermissions,
  });
  await recordEvent(w, { type: "role-created", data: roleEventData(role) });
  return role;
}

/** Replaces a custom role's name, description and permissions (records `role-updated`). */
export async function updateRole(w: Write, id: number, raw: unknown) {
  await lockRow(w.tx, "Role", id);
  const before = await customRole(w.tx, id);
  const input = parseRole(raw);
  if (input.type !== before.type)
    throw new ValidationError(`type: a ${before.type} role cannot become ${input.type}`);
  await assertNameFree(w.tx, input.name, id);
  const rows = await permissionRows(w.tx, input);
  await w.tx.rolePermission.deleteMany({ where: { roleId: id } });
  const role = await w.tx.role.update({
    where: { id },
    data: { name: input.name, description: input.description ?? null, permissions: { create: rows } },
    include: withPermissions,
  });
  if (before.name !== role.name && role.type === "root-custom") {
    await w.tx.user.updateMany({ where: { rootRole: before.name }, data: { rootRole: role.name } });
  }
  await recordEvent(w, { type: "role-updated", data: roleEventData(role), preData: roleEventData(before) });
  return role;
}

/** Deletes a custom role nobody holds (records `role-deleted`); a role in use is a conflict. */
export async function deleteRole(w: Write, id: number) {
  await lockRow(w.tx, "Role", id);
  const before = await customRole(w.tx, id);
  const holders =
    (await w.tx.projectMember.count({ where: { roleId: id } })) +
    (await w.tx.user.count({ where: { rootRole: before.name, deletedAt: null } }));
  if (holders > 0) {
    throw new ConflictError(
      `The role ${before.name} is still assigned to ${holders} user(s); remove them first`,
    );
  }
  await w.tx.role.delete({ where: { id } });
  await recordEvent(w, { type: "role-deleted", preData: roleEventData(before) });
  return before;
}
