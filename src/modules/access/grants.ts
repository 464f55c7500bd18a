import type { Db } from "../../db/database.ts";
import { isPermission } from "./permissions.ts";
import type { Grant, Principal } from "./principal.ts";

type UserRow = {
  id: number;
  username: string | null;
  email: string | null;
  rootRole: string;
};

/** The name written to events for a user: username, else email, else `user-<id>`. */
export function userDisplayName(user: { id: number; username: string | null; email: string | null }) {
  return user.username ?? user.email ?? `user-${user.id}`;
}

/**
 * Loads everything a user may do: the permissions of their root role (every project and
 * environment) and of each project role they hold (that project; environment as the role
 * row says). Two queries, once per request.
 */
export async function userGrants(db: Db, user: UserRow): Promise<Grant[]> {
  const [root, memberships] = await Promise.all([
    db.role.findUnique({
      where: { name: user.rootRole },
      select: { permissions: { select: { permissionName: true, environmentName: true } } },
    }),
    db.projectMember.findMany({
      where: { userId: user.id, project: { archivedAt: null } },
      select: {
        projectId: true,
        role: { select: { permissions: { select: { permissionName: true, environmentName: true } } } },
      },
    }),
  ]);
  const grants: Grant[] = [];
  for (const p of root?.permissions ?? []) {
    if (isPermission(p.permissionName)) {
      grants.push({ permission: p.permissionName, project: null, environment: p.environmentName || null });
    }
  }
  for (const m of memberships) {
    for (const p of m.role.permissions) {
      if (isPermission(p.permissionName)) {
        grants.push({
          permission: p.permissionName,
          project: m.projectId,
          environment: p.environmentName || null,
        });
      }
    }
  }
  return grants;
}

export async function userPrincipal(db: Db, user: UserRow, via: Principal["via"]): Promise<Principal> {
  return {
    kind: "user",
    via,
    name: userDisplayName(user),
    userId: user.id,
    rootRole: user.rootRole,
    projects: ["*"],
    environment: "*",
    grants: await userGrants(db, user),
  };
}
