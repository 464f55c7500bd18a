import type { Context } from "../../context.ts";
import { AuthenticationRequired, NoAccessError } from "../../shared/errors.ts";
import { EDITOR_PERMISSIONS, type PermissionCheck } from "./permissions.ts";
import type { Principal } from "./principal.ts";

/** The one auth check: may `principal` do `check`? ADMIN passes everything. */
export function can(principal: Principal, check: PermissionCheck): boolean {
  if (principal.kind === "client-token" || principal.kind === "frontend-token") return false;
  if (principal.rootRole === "Admin") return true;
  if (principal.rootRole === "Editor") return EDITOR_PERMISSIONS.has(check.permission);
  return false;
}

export function requireAuthenticated(ctx: Context): true {
  if (!ctx.principal) throw new AuthenticationRequired();
  return true;
}

export function requirePermission(ctx: Context, check: PermissionCheck): true {
  const principal = ctx.principal;
  if (!principal) throw new AuthenticationRequired();
  if (!can(principal, check)) throw new NoAccessError(check.permission, check.environment ?? undefined);
  return true;
}
