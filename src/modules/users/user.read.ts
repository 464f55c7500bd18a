import type { Db, Tx } from "../../db/database.ts";

/** The user `id` (deleted ones too), or null. */
export function userById(db: Db | Tx, id: number) {
  return db.user.findUnique({ where: { id } });
}

/** The users among `ids` (deleted ones too). */
export function usersWithIds(db: Db | Tx, ids: number[]) {
  return db.user.findMany({ where: { id: { in: ids } } });
}

/** The names a user is shown by (name, username, email) of the users among `ids`. */
export function userNamesWithIds(db: Db | Tx, ids: number[]) {
  return db.user.findMany({
    where: { id: { in: ids } },
    select: { id: true, name: true, username: true, email: true },
  });
}

/** The active administrators (root role Admin, not service accounts), by id. */
export function rootAdmins(db: Db) {
  return db.user.findMany({
    where: { rootRole: "Admin", deletedAt: null, isService: false },
    select: { id: true, name: true, username: true, imageUrl: true, email: true },
    orderBy: { id: "asc" },
  });
}

/** The active users who own one of `projectIds` (project role Owner), by id. */
export function ownersOfProjects(db: Db, projectIds: string[]) {
  return db.user.findMany({
    where: {
      deletedAt: null,
      projectMemberships: { some: { projectId: { in: projectIds }, role: { name: "Owner" } } },
    },
    select: { id: true, name: true, username: true, email: true, imageUrl: true },
    orderBy: { id: "asc" },
  });
}

/** The avatars of the users among `ids`. */
export function userImages(db: Db, ids: number[]) {
  return db.user.findMany({ where: { id: { in: ids } }, select: { id: true, imageUrl: true } });
}

/** The roles user `userId` holds in project `projectId`, by id. */
export function projectRolesOf(db: Db, projectId: string, userId: number) {
  return db.role.findMany({
    where: { members: { some: { projectId, userId } } },
    select: { id: true, name: true, type: true },
    orderBy: { id: "asc" },
  });
}

/** The users (not pseudo-users) who created an active flag of project `projectId`. */
export function creatorsOfActiveFlags(db: Db, projectId: string) {
  return db.user.findMany({
    where: { id: { gt: 0 }, createdFeatures: { some: { projectId, archivedAt: null } } },
    select: { id: true, name: true, username: true, email: true },
  });
}

/** The distinct members of project `projectId` (added in `added` when given). */
export function projectMemberIds(db: Db, projectId: string, added?: { gte: Date }) {
  return db.projectMember.findMany({
    where: { projectId, ...(added ? { createdAt: added } : {}) },
    select: { userId: true },
    distinct: ["userId"],
  });
}

/** People, not deleted: no service accounts. */
const HUMANS = { deletedAt: null, isService: false } as const;

/** How many people have an account (seen since `seenSince` when given). */
export function humanUserCount(db: Db, seenSince?: Date) {
  return db.user.count({ where: seenSince ? { ...HUMANS, seenAt: { gte: seenSince } } : HUMANS });
}

/** Users seen since `since`, deleted ones included (Unleash's licensed users). */
export function licensedUserCount(db: Db, since: Date) {
  return db.user.count({ where: { isService: false, seenAt: { gte: since } } });
}

/** Viewers who hold no project role: they can read and change nothing. */
export function readOnlyUserCount(db: Db) {
  return db.user.count({ where: { ...HUMANS, rootRole: "Viewer", projectMemberships: { none: {} } } });
}

/** How many roles there are. */
export function roleCount(db: Db) {
  return db.role.count();
}
