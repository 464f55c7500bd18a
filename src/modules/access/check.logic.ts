import type { Context } from "../../context.ts";
import {
  AuthenticationRequired,
  DomainError,
  ForbiddenOperation,
  NoAccessError,
} from "../../shared/errors.ts";
import { isPermission, type Permission, type PermissionCheck, permissionType } from "./permissions.logic.ts";
import type { Grant, Principal } from "./principal.types.ts";

const matches = (scope: string | null, wanted: string | null | undefined) =>
  scope === null || scope === "*" || scope === wanted;

/**
 * The one RBAC check: may `principal` do `check`? It passes when one grant is the required
 * permission (or ADMIN) and its project and environment are unscoped or equal to the
 * operation's (reference-behaviours §9.2). A project-scoped grant never satisfies a check
 * that names no project.
 */
export function can(principal: Principal, check: PermissionCheck): boolean {
  return principal.grants.some((grant) => grantCovers(grant, check));
}

function grantCovers(grant: Grant, check: PermissionCheck): boolean {
  // A root permission held through a project role would reach beyond that project (ADMIN
  // passes everything): only an unscoped grant may carry one.
  if (grant.project !== null && permissionType(grant.permission) === "root") return false;
  if (grant.permission === "ADMIN") return true;
  if (grant.permission !== check.permission) return false;
  return matches(grant.project, check.project) && matches(grant.environment, check.environment);
}

/** Client and frontend tokens serve the SDK APIs only (reference-behaviours §9.1). */
export function isSdkCredential(principal: Principal): boolean {
  return principal.kind === "client-token" || principal.kind === "frontend-token";
}

/** What a client or frontend token is told outside the SDK APIs (Unleash's words). */
export const SDK_TOKEN_REFUSED = "invalid token: expected a different token type for this endpoint";

function assertAdminApiCredential(principal: Principal): void {
  if (isSdkCredential(principal)) throw new ForbiddenOperation(SDK_TOKEN_REFUSED);
}

export function requireAuthenticated(ctx: Context): true {
  if (!ctx.principal) throw ctx.authProblem ?? new AuthenticationRequired();
  assertAdminApiCredential(ctx.principal);
  return true;
}

export function requirePermission(ctx: Context, check: PermissionCheck): true {
  const principal = ctx.principal;
  if (!principal) throw ctx.authProblem ?? new AuthenticationRequired();
  assertAdminApiCredential(principal);
  if (!can(principal, check)) throw new NoAccessError(check.permission, check.environment ?? undefined);
  return true;
}

/**
 * Before an operation's arguments are valid (REST checks this ahead of the body, D-153): does
 * the caller hold `permission` in at least one project or environment? Weaker than `can`.
 */
export function requirePermissionSomewhere(ctx: Context, check: PermissionCheck): true {
  requireAuthenticated(ctx);
  const principal = ctx.principal as Principal;
  const { permission } = check;
  const somewhere = principal.grants.some((grant) =>
    grantCovers(grant, { permission, project: grant.project, environment: grant.environment }),
  );
  // The refusal the full check would give (it fails too: the permission is held nowhere).
  if (!somewhere) throw new NoAccessError(permission, check.environment ?? undefined);
  return true;
}

/** One permission of a role: `environment` empty or null means every environment. */
export type RolePermissionRow = { permissionName: string; environmentName: string | null };

/**
 * Granting a role never gives more than the granter holds: whoever gives `permissions` in
 * `project` (null: a root role) must hold each of them there, in the same environment or in
 * every one (admins hold everything). Otherwise FORBIDDEN, naming what they lack.
 */
export function assertMayGrant(
  principal: Principal | null,
  permissions: readonly RolePermissionRow[],
  project: string | null,
): void {
  if (!principal) throw new AuthenticationRequired();
  const missing = permissions.filter(
    (p) =>
      // a name Vexil does not know grants nothing (userPrincipal drops it): nothing to hold
      isPermission(p.permissionName) &&
      !can(principal, {
        permission: p.permissionName,
        project,
        environment: p.environmentName || undefined,
      }),
  );
  if (missing.length === 0) return;
  const names = missing.map((p) =>
    p.environmentName ? `${p.permissionName} (${p.environmentName})` : p.permissionName,
  );
  throw new DomainError(
    "FORBIDDEN",
    `You cannot give a role with permissions you do not hold yourself: you lack ${names.map((n) => `"${n}"`).join(", ")}${project ? ` in project "${project}"` : ""}.`,
    undefined,
    { permissions: [...new Set(missing.map((p) => p.permissionName))] },
  );
}
