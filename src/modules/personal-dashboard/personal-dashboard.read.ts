import type { Db } from "../../db/database.ts";

/** Unleash caps the dashboard's flag list at 100 (reference-behaviours §12). */
const MAX_FLAGS = 100;

/** Ids of the active projects a user holds a role in, or has favourited. */
export async function myProjectIds(db: Db, userId: number | null): Promise<string[]> {
  if (userId === null) return [];
  const projects = await db.project.findMany({
    where: {
      archivedAt: null,
      OR: [{ members: { some: { userId } } }, { favorites: { some: { userId } } }],
    },
    select: { id: true },
    orderBy: { name: "asc" },
  });
  return projects.map((p) => p.id);
}

/** Names of the active flags a user created or favourited, newest first (at most 100). */
export async function myFlagNames(db: Db, userId: number | null): Promise<string[]> {
  if (userId === null) return [];
  const flags = await db.feature.findMany({
    where: {
      archivedAt: null,
      OR: [{ createdByUserId: userId }, { favorites: { some: { userId } } }],
    },
    select: { name: true },
    orderBy: [{ createdAt: "desc" }, { name: "asc" }],
    take: MAX_FLAGS,
  });
  return flags.map((f) => f.name);
}

/** The personal dashboard (spec 2.15). A credential without a user gets empty personal lists. */
export async function personalDashboard(db: Db, userId: number | null) {
  const projectIds = await myProjectIds(db, userId);
  const flagNames = await myFlagNames(db, userId);
  const [admins, projects, owners, flags] = await Promise.all([
    db.user.findMany({
      where: { rootRole: "Admin", deletedAt: null, isService: false },
      select: { id: true, name: true, username: true, imageUrl: true, email: true },
      orderBy: { id: "asc" },
    }),
    db.project.findMany({
      where: { id: { in: projectIds } },
      select: {
        id: true,
        name: true,
        health: true,
        members: { select: { userId: true } },
        _count: { select: { features: { where: { archivedAt: null } } } },
      },
      orderBy: { name: "asc" },
    }),
    db.user.findMany({
      where: {
        deletedAt: null,
        projectMemberships: { some: { projectId: { in: projectIds }, role: { name: "Owner" } } },
      },
      select: { name: true, username: true, email: true, imageUrl: true },
      orderBy: { id: "asc" },
    }),
    db.feature.findMany({
      where: { name: { in: flagNames } },
      select: { name: true, projectId: true, type: true },
      orderBy: [{ createdAt: "desc" }, { name: "asc" }],
    }),
  ]);
  return {
    admins,
    projectOwners: owners.map((o) => ({
      ownerType: "user",
      name: o.name ?? o.username ?? o.email ?? "",
      imageUrl: o.imageUrl,
      email: o.email,
    })),
    projects: projects.map((p) => ({
      id: p.id,
      name: p.name,
      health: p.health,
      memberCount: new Set(p.members.map((m) => m.userId)).size,
      featureCount: p._count.features,
    })),
    flags: flags.map((f) => ({ name: f.name, project: f.projectId, type: f.type })),
  };
}
