import type { Context } from "../../context.ts";
import {
  AuthenticationRequired,
  DomainError,
  ForbiddenOperation,
  NoAccessError,
} from "../../shared/errors.ts";
import { can, grantCovers } from "./grant-check.logic.ts";
import { isPermission, type PermissionCheck } from "./permissions.logic.ts";
import type { Principal } from "./principal.types.ts";

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
 * Before an operation's arguments are valid (REST checks this ahead of the body, D-12): does
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
