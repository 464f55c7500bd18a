import { type PermissionCheck, permissionType } from "./permissions.logic.ts";
import type { Grant } from "./principal.types.ts";

/*
 * Plain code with no server dependency: the web UI imports it to show only the controls the
 * viewer may use, by the same rule the API enforces.
 */

const matches = (scope: string | null, wanted: string | null | undefined) =>
  scope === null || scope === "*" || scope === wanted;

/**
 * The one RBAC check: may `principal` do `check`? It passes when one grant is the required
 * permission (or ADMIN) and its project and environment are unscoped or equal to the
 * operation's (reference-behaviours §9.2). A project-scoped grant never satisfies a check
 * that names no project.
 */
export function can(principal: { grants: readonly Grant[] }, check: PermissionCheck): boolean {
  return principal.grants.some((grant) => grantCovers(grant, check));
}

export function grantCovers(grant: Grant, check: PermissionCheck): boolean {
  // A root permission held through a project role would reach beyond that project (ADMIN
  // passes everything): only an unscoped grant may carry one.
  if (grant.project !== null && permissionType(grant.permission) === "root") return false;
  if (grant.permission === "ADMIN") return true;
  if (grant.permission !== check.permission) return false;
  return matches(grant.project, check.project) && matches(grant.environment, check.environment);
}
