import type { Db } from "../../db/database.ts";
import { myFlagNames, myProjectIds } from "../users/viewer.read.ts";

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
