/**
 * Permission names, as Unleash names them (reference-behaviours §9.3), so custom roles and
 * scripts can use the same words. `ADMIN` passes every check. Keep names stable: other
 * modules declare `authScopes: { permission: { permission: PERMISSIONS.X, ... } }`.
 */
export const PERMISSIONS = {
  ADMIN: "ADMIN",
  CREATE_FEATURE: "CREATE_FEATURE",
  UPDATE_FEATURE: "UPDATE_FEATURE",
  DELETE_FEATURE: "DELETE_FEATURE",
  CREATE_PROJECT: "CREATE_PROJECT",
  UPDATE_PROJECT: "UPDATE_PROJECT",
  DELETE_PROJECT: "DELETE_PROJECT",
  UPDATE_FEATURE_ENVIRONMENT: "UPDATE_FEATURE_ENVIRONMENT",
  CREATE_FEATURE_STRATEGY: "CREATE_FEATURE_STRATEGY",
  UPDATE_FEATURE_STRATEGY: "UPDATE_FEATURE_STRATEGY",
  DELETE_FEATURE_STRATEGY: "DELETE_FEATURE_STRATEGY",
  UPDATE_FEATURE_ENVIRONMENT_VARIANTS: "UPDATE_FEATURE_ENVIRONMENT_VARIANTS",
  UPDATE_FEATURE_DEPENDENCY: "UPDATE_FEATURE_DEPENDENCY",
  CREATE_ENVIRONMENT: "CREATE_ENVIRONMENT",
  UPDATE_ENVIRONMENT: "UPDATE_ENVIRONMENT",
  DELETE_ENVIRONMENT: "DELETE_ENVIRONMENT",
  CREATE_CONTEXT_FIELD: "CREATE_CONTEXT_FIELD",
  UPDATE_CONTEXT_FIELD: "UPDATE_CONTEXT_FIELD",
  DELETE_CONTEXT_FIELD: "DELETE_CONTEXT_FIELD",
  CREATE_TAG_TYPE: "CREATE_TAG_TYPE",
  UPDATE_TAG_TYPE: "UPDATE_TAG_TYPE",
  DELETE_TAG_TYPE: "DELETE_TAG_TYPE",
  CREATE_SEGMENT: "CREATE_SEGMENT",
  UPDATE_SEGMENT: "UPDATE_SEGMENT",
  DELETE_SEGMENT: "DELETE_SEGMENT",
  CREATE_ADDON: "CREATE_ADDON",
  UPDATE_ADDON: "UPDATE_ADDON",
  DELETE_ADDON: "DELETE_ADDON",
  APPROVE_CHANGE_REQUEST: "APPROVE_CHANGE_REQUEST",
  APPLY_CHANGE_REQUEST: "APPLY_CHANGE_REQUEST",
  SKIP_CHANGE_REQUEST: "SKIP_CHANGE_REQUEST",
  READ_CLIENT_API_TOKEN: "READ_CLIENT_API_TOKEN",
  CREATE_CLIENT_API_TOKEN: "CREATE_CLIENT_API_TOKEN",
  UPDATE_CLIENT_API_TOKEN: "UPDATE_CLIENT_API_TOKEN",
  DELETE_CLIENT_API_TOKEN: "DELETE_CLIENT_API_TOKEN",
  READ_FRONTEND_API_TOKEN: "READ_FRONTEND_API_TOKEN",
  CREATE_FRONTEND_API_TOKEN: "CREATE_FRONTEND_API_TOKEN",
  UPDATE_FRONTEND_API_TOKEN: "UPDATE_FRONTEND_API_TOKEN",
  DELETE_FRONTEND_API_TOKEN: "DELETE_FRONTEND_API_TOKEN",
  CREATE_STRATEGY: "CREATE_STRATEGY",
  UPDATE_STRATEGY: "UPDATE_STRATEGY",
  DELETE_STRATEGY: "DELETE_STRATEGY",
  READ_PROJECT_API_TOKEN: "READ_PROJECT_API_TOKEN",
  CREATE_PROJECT_API_TOKEN: "CREATE_PROJECT_API_TOKEN",
  DELETE_PROJECT_API_TOKEN: "DELETE_PROJECT_API_TOKEN",
  UPDATE_APPLICATION: "UPDATE_APPLICATION",
  DELETE_APPLICATION: "DELETE_APPLICATION",
} as const;

export type Permission = (typeof PERMISSIONS)[keyof typeof PERMISSIONS];

/** A permission required for one operation, optionally narrowed to a project and environment. */
export type PermissionCheck = {
  permission: Permission;
  project?: string | null;
  environment?: string | null;
};

/** Where a permission applies: the whole instance, one project, or one environment of a project. */
export type PermissionType = "root" | "project" | "environment";

const ENVIRONMENT_PERMISSIONS: ReadonlySet<Permission> = new Set<Permission>([
  "UPDATE_FEATURE_ENVIRONMENT",
  "CREATE_FEATURE_STRATEGY",
  "UPDATE_FEATURE_STRATEGY",
  "DELETE_FEATURE_STRATEGY",
  "UPDATE_FEATURE_ENVIRONMENT_VARIANTS",
  "APPROVE_CHANGE_REQUEST",
  "APPLY_CHANGE_REQUEST",
  "SKIP_CHANGE_REQUEST",
]);

const PROJECT_PERMISSIONS: ReadonlySet<Permission> = new Set<Permission>([
  "CREATE_FEATURE",
  "UPDATE_FEATURE",
  "DELETE_FEATURE",
  "UPDATE_PROJECT",
  "DELETE_PROJECT",
  "UPDATE_FEATURE_DEPENDENCY",
  "READ_PROJECT_API_TOKEN",
  "CREATE_PROJECT_API_TOKEN",
  "DELETE_PROJECT_API_TOKEN",
]);

export function permissionType(permission: Permission): PermissionType {
  if (ENVIRONMENT_PERMISSIONS.has(permission)) return "environment";
  if (PROJECT_PERMISSIONS.has(permission)) return "project";
  return "root";
}

export function isPermission(name: string): name is Permission {
  return Object.hasOwn(PERMISSIONS, name);
}

const CHANGE_REQUEST_PERMISSIONS: ReadonlySet<Permission> = new Set<Permission>([
  "APPROVE_CHANGE_REQUEST",
  "APPLY_CHANGE_REQUEST",
  "SKIP_CHANGE_REQUEST",
]);

/**
 * Permissions every Editor holds in every project and environment: everything but ADMIN, the
 * change-request approvals (those are granted by custom roles, as in Unleash) and deleting an
 * environment, which deletes every flag's configuration there (D-23).
 */
export const EDITOR_PERMISSIONS: ReadonlySet<Permission> = new Set(
  Object.values(PERMISSIONS).filter(
    (p) => p !== "ADMIN" && p !== "DELETE_ENVIRONMENT" && !CHANGE_REQUEST_PERMISSIONS.has(p),
  ),
);

/** A project Owner: every project and environment permission in the project (no approvals). */
export const OWNER_PERMISSIONS: ReadonlySet<Permission> = new Set(
  Object.values(PERMISSIONS).filter(
    (p) => permissionType(p) !== "root" && !CHANGE_REQUEST_PERMISSIONS.has(p),
  ),
);

/** A project Member: works on the project's flags; does not change or delete the project or manage its tokens. */
export const MEMBER_PERMISSIONS: ReadonlySet<Permission> = new Set(
  [...OWNER_PERMISSIONS].filter(
    (p) => p !== "UPDATE_PROJECT" && p !== "DELETE_PROJECT" && !p.endsWith("_PROJECT_API_TOKEN"),
  ),
);

/** The roles every instance has (ids as in Unleash: 1-3 root, 4-5 project). */
export const PREDEFINED_ROLES = [
  {
    id: 1,
    name: "Admin",
    type: "root",
    description: "Users with the root role Admin can do everything.",
    permissions: ["ADMIN"],
  },
  {
    id: 2,
    name: "Editor",
    type: "root",
    description:
      "Users with the root role Editor can create and change flags, strategies and other resources, but not users, roles or settings.",
    permissions: [...EDITOR_PERMISSIONS],
  },
  {
    id: 3,
    name: "Viewer",
    type: "root",
    description: "Users with the root role Viewer can only read.",
    permissions: [],
  },
  {
    id: 4,
    name: "Owner",
    type: "project",
    description: "Users with the project role Owner have full control over the project.",
    permissions: [...OWNER_PERMISSIONS],
  },
  {
    id: 5,
    name: "Member",
    type: "project",
    description: "Users with the project role Member can work on the project's flags.",
    permissions: [...MEMBER_PERMISSIONS],
  },
] as const satisfies readonly {
  id: number;
  name: string;
  type: string;
  description: string;
  permissions: readonly Permission[];
}[];

export const ROOT_ROLE_NAMES = ["Admin", "Editor", "Viewer"] as const;
export const PREDEFINED_ROLE_NAMES: ReadonlySet<string> = new Set(PREDEFINED_ROLES.map((r) => r.name));

/** Human name of a permission ("UPDATE_FEATURE_STRATEGY" -> "Update feature strategy"). */
export function displayName(permission: Permission): string {
  const words = permission.toLowerCase().replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
