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
 * environment) and of each project role they hold in an active project (that project;
 * environment as the role row says). One statement, since it runs on every request.
 */
export async function userGrants(db: Db, user: UserRow): Promise<Grant[]> {
  const rows = await db.$queryRaw<GrantRow[]>`
    SELECT rp."permissionName", rp."environmentName", NULL::text AS "projectId"
      FROM "Role" r JOIN "RolePermission" rp ON rp."roleId" = r.id
      WHERE r.name = ${user.rootRole}
    UNION ALL
    SELECT rp."permissionName", rp."environmentName", pm."projectId"
      FROM "ProjectMember" pm
      JOIN "Project" p ON p.id = pm."projectId" AND p."archivedAt" IS NULL
      JOIN "RolePermission" rp ON rp."roleId" = pm."roleId"
      WHERE pm."userId" = ${user.id}`;
  const grants: Grant[] = [];
  for (const row of rows) {
    if (isPermission(row.permissionName)) {
      grants.push({
        permission: row.permissionName,
        project: row.projectId,
        environment: row.environmentName || null,
      });
    }
  }
  return grants;
}

type GrantRow = { permissionName: string; environmentName: string | null; projectId: string | null };

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
