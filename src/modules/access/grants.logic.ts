import { Prisma } from "../../generated/prisma/client.ts";
import { isPermission } from "./permissions.logic.ts";
import type { Grant, Principal } from "./principal.types.ts";

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

/** A user row as credentials resolve it, with everything the user may do. */
export type UserWithGrants = UserRow & {
  deletedAt: Date | null;
  seenAt: Date | null;
  grants: { permission: string; project: string | null; environment: string | null }[];
};

/**
 * The columns of the user `u` plus `grants`: the permissions of their root role (every project
 * and environment) and of each project role they hold in an active project (that project;
 * environment as the role row says). A fragment, so a credential lookup is one statement with
 * it: it runs on every request.
 */
export const USER_WITH_GRANTS = Prisma.sql`u.id, u.username, u.email, u."rootRole", u."deletedAt", u."seenAt",
  (SELECT COALESCE(json_agg(g), '[]'::json) FROM (
    SELECT rp."permissionName" AS permission, NULL::text AS project,
           NULLIF(rp."environmentName", '') AS environment
      FROM "Role" r JOIN "RolePermission" rp ON rp."roleId" = r.id
      WHERE r.name = u."rootRole"
    UNION ALL
    SELECT rp."permissionName", pm."projectId", NULLIF(rp."environmentName", '')
      FROM "ProjectMember" pm
      JOIN "Project" p ON p.id = pm."projectId" AND p."archivedAt" IS NULL
      JOIN "RolePermission" rp ON rp."roleId" = pm."roleId"
      WHERE pm."userId" = u.id) g) AS grants`;

export function userPrincipal(user: UserWithGrants, via: Principal["via"]): Principal {
  const grants: Grant[] = [];
  for (const g of user.grants) {
    if (isPermission(g.permission)) grants.push({ ...g, permission: g.permission });
  }
  return {
    kind: "user",
    via,
    name: userDisplayName(user),
    userId: user.id,
    tokenId: null,
    rootRole: user.rootRole,
    projects: ["*"],
    environment: "*",
    grants,
  };
}
