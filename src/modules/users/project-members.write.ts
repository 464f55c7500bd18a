import { recordEvent } from "../../events/record.ts";
import { NotFoundError, ValidationError } from "../../shared/errors.ts";
import type { Write } from "../../shared/write.ts";
import { assertMayGrant } from "../access/check.logic.ts";
import type { Principal } from "../access/principal.types.ts";
import { activeUser } from "./users.write.ts";

async function projectRole(w: Write, project: string, roleId: number) {
  if (!(await w.tx.project.findUnique({ where: { id: project } }))) {
    throw new NotFoundError(`Could not find project ${project}`);
  }
  const role = await w.tx.role.findUnique({ where: { id: roleId }, include: { permissions: true } });
  if (!role) throw new NotFoundError(`Could not find role with id ${roleId}`);
  if (role.type !== "project" && role.type !== "custom") {
    throw new ValidationError(`roleId: ${role.name} is a root role, not a project role`);
  }
  return role;
}

/**
 * Gives a user a project role (records `project-user-added`; nothing when already held). The
 * granter must hold every permission of the role in the project (D-12), else FORBIDDEN.
 */
export async function addProjectMember(
  w: Write,
  granter: Principal | null,
  member: { project: string; userId: number; roleId: number },
) {
  const { project, userId, roleId } = member;
  const role = await projectRole(w, project, roleId);
  assertMayGrant(granter, role.permissions, project);
  const user = await activeUser(w.tx, userId);
  const added = await w.tx.projectMember.createMany({
    data: [{ userId, projectId: project, roleId, createdAt: w.now }],
    skipDuplicates: true,
  });
  if (added.count === 0) return;
  await recordEvent(w, {
    type: "project-user-added",
    project,
    data: { userId: user.id, roleId, roleName: role.name },
  });
}

/** Takes a project role away (records `project-user-removed`); NotFoundError when not held. */
export async function removeProjectMember(w: Write, project: string, userId: number, roleId: number) {
  const role = await projectRole(w, project, roleId);
  const deleted = await w.tx.projectMember.deleteMany({ where: { userId, projectId: project, roleId } });
  if (deleted.count === 0) throw new NotFoundError(`User ${userId} does not hold ${role.name} in ${project}`);
  await recordEvent(w, {
    type: "project-user-removed",
    project,
    preData: { userId, roleId, roleName: role.name },
  });
}
