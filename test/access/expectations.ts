import type { AuthScopeMap } from "../../rest/route-permissions.ts";

/**
 * Who may do what, written down from reference-behaviours §9.2 independently of the code
 * under test: Admin passes everything; Editor everything but ADMIN, change-request
 * approvals and deleting an environment (D-23); a project Member (root role Viewer) the flag work in project `default`;
 * Viewer only reads.
 */
export type Caller = "viewer" | "editor" | "member" | "admin";

const EDITOR_DENIED = new Set([
  "ADMIN",
  "APPROVE_CHANGE_REQUEST",
  "APPLY_CHANGE_REQUEST",
  "SKIP_CHANGE_REQUEST",
  "DELETE_ENVIRONMENT",
]);
const MEMBER_ALLOWED = new Set([
  "CREATE_FEATURE",
  "UPDATE_FEATURE",
  "DELETE_FEATURE",
  "UPDATE_FEATURE_DEPENDENCY",
  "UPDATE_FEATURE_ENVIRONMENT",
  "CREATE_FEATURE_STRATEGY",
  "UPDATE_FEATURE_STRATEGY",
  "DELETE_FEATURE_STRATEGY",
  "UPDATE_FEATURE_ENVIRONMENT_VARIANTS",
]);

export function allowed(caller: Caller, scopes: AuthScopeMap): boolean {
  if (scopes.authenticated) return true;
  const check = scopes.permission;
  if (!check) return false;
  switch (caller) {
    case "admin":
      return true;
    case "editor":
      return !EDITOR_DENIED.has(check.permission);
    case "member":
      return MEMBER_ALLOWED.has(check.permission) && check.project === "default";
    case "viewer":
      return false;
  }
}
