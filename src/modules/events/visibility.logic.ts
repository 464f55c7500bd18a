import type { Context } from "../../context.ts";
import type { StoredEvent } from "../../events/types.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { AuthenticationRequired } from "../../shared/errors.ts";
import { can } from "../access/grant-check.logic.ts";
import type { Principal } from "../access/principal.types.ts";

/**
 * The one rule for reading the audit log, whichever way it is read (event search in GraphQL
 * and REST, the legacy event endpoints, a flag's events, the live feed over WebSocket/SSE):
 *
 * - a credential holding the root `ADMIN` permission for every project reads every event,
 *   including those of no project (users, roles, API tokens, PATs, tags, tag types...);
 * - anyone else reads only the events of the projects the credential may read: every project
 *   for a user (Viewer, Editor, custom root roles: Vexil has no private projects), the
 *   token's projects for a project-scoped token. Events of no project are hidden from them,
 *   as Unleash hides them from non-admins: they hold the user directory (emails), token and
 *   role changes.
 */
export type EventVisibility = {
  /** null: every event; "*": every event that has a project; else the events of these projects. */
  projects: null | "*" | string[];
  accept(event: Pick<StoredEvent, "project">): boolean;
  where: Prisma.EventWhereInput;
  /** Equal for principals that may read the same events (subscribers sharing results). */
  audience: string;
};

export function eventVisibility(principal: Principal): EventVisibility {
  const allProjects = principal.projects.includes("*");
  if (allProjects && can(principal, { permission: "ADMIN" })) {
    return { projects: null, accept: () => true, where: {}, audience: "all" };
  }
  if (allProjects) {
    return {
      projects: "*",
      accept: (e) => e.project !== null,
      where: { project: { not: null } },
      audience: "projects:*",
    };
  }
  const projects = [...new Set(principal.projects)].sort();
  const readable = new Set(projects);
  return {
    projects,
    accept: (e) => e.project !== null && readable.has(e.project),
    where: { project: { in: projects } },
    audience: `projects:${JSON.stringify(projects)}`,
  };
}

/** The visibility of the caller of a resolver guarded by `authenticated` (so never anonymous). */
export function visibilityOf(ctx: Pick<Context, "principal" | "authProblem">): EventVisibility {
  if (!ctx.principal) throw ctx.authProblem ?? new AuthenticationRequired();
  return eventVisibility(ctx.principal);
}
