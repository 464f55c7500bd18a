import type { StoredEvent } from "../../events/types.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import type { Principal } from "../access/principal.ts";

/**
 * Which events a principal may read live: root admins with an unscoped credential see every
 * event; everyone else sees only events of a project their credential covers (Unleash hides
 * project-less events, e.g. user and token changes, from non-admins).
 */
export type EventVisibility = {
  accept(event: Pick<StoredEvent, "project">): boolean;
  where: Prisma.EventWhereInput;
  /** Equal for principals that may read the same events (subscribers sharing results). */
  audience: string;
};

export function eventVisibility(principal: Principal): EventVisibility {
  const allProjects = principal.projects.includes("*");
  if (principal.rootRole === "Admin" && allProjects) {
    return { accept: () => true, where: {}, audience: "all" };
  }
  if (allProjects) {
    return { accept: (e) => e.project !== null, where: { project: { not: null } }, audience: "projects:*" };
  }
  const projects = new Set(principal.projects);
  return {
    accept: (e) => e.project !== null && projects.has(e.project),
    where: { project: { in: [...projects] } },
    audience: `projects:${JSON.stringify([...projects].sort())}`,
  };
}
