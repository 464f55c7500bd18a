import type { Db } from "../../db/database.ts";
import { flagsNewestFirst } from "../features/feature.read.ts";
import { projectSummaries } from "../projects/project.read.ts";
import { ownersOfProjects, rootAdmins } from "../users/user.read.ts";
import { myFlagNames, myProjectIds } from "../users/viewer.read.ts";

/** The personal dashboard (spec 2.15). A credential without a user gets empty personal lists. */
export async function personalDashboard(db: Db, userId: number | null) {
  const projectIds = await myProjectIds(db, userId);
  const flagNames = await myFlagNames(db, userId);
  const [admins, projects, owners, flags] = await Promise.all([
    rootAdmins(db),
    projectSummaries(db, projectIds),
    ownersOfProjects(db, projectIds),
    flagsNewestFirst(db, flagNames),
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
