import { z } from "zod";
import { ValidationError } from "../../src/shared/errors.ts";
import { objectBody } from "../body-fields.ts";
import { graphql, type ResultOf } from "../graphql.ts";
import { defineRoutes, type RestRequest, typedRoute } from "../route.ts";

/** Unleash's user-admin and own-account paths that come before `/user-admin/:id` in the table. */

const UserFields = graphql(`
  fragment UserFields on UserListing { id name email username imageUrl rootRoleId createdAt seenAt }
`);
const RoleFields = graphql(`fragment RoleFields on UserRole { id name type description project }`);

/** Unleash's userSchema as its search and access lists give it (email omitted when there is none). */
const userBaseSchema = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  email: z.string().optional(),
  username: z.string().nullable(),
  imageUrl: z.string(),
  rootRole: z.number().int().min(0).optional(),
  accountType: z.literal("User"),
  seenAt: z.string().datetime().nullable(),
  createdAt: z.string().datetime(),
});
const roleSchema = z.object({
  id: z.number().int().min(0),
  type: z.string(),
  name: z.string(),
  description: z.string().optional(),
  project: z.string().nullable(),
});
/** Unleash's passwordSchema refuses other fields (400). */
const passwordBody = z.strictObject({
  password: z.string(),
  confirmPassword: z.string().optional(),
  oldPassword: z.string().optional(),
});

const userBase = (u: ResultOf<typeof UserFields>) => ({
  id: u.id,
  name: u.name,
  ...(u.email ? { email: u.email } : {}),
  username: u.username,
  imageUrl: u.imageUrl,
  ...(u.rootRoleId !== null ? { rootRole: u.rootRoleId } : {}),
  accountType: "User" as const,
  seenAt: u.seenAt,
  createdAt: u.createdAt,
});
const role = (r: ResultOf<typeof RoleFields>) => ({
  id: r.id,
  type: r.type,
  name: r.name,
  ...(r.description !== null ? { description: r.description } : {}),
  project: r.project,
});
/** The body's new password: a string, required (the body must be an object). */
const password = (req: RestRequest) => {
  const value = objectBody(req).password;
  if (value === undefined) throw new ValidationError('"password" is required.');
  if (typeof value !== "string") throw new ValidationError('"password" must be a string.');
  return value;
};

export const userAccountRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/user/profile",
    tag: "Users",
    summary: "The caller's root role and project memberships",
    document: graphql(
      `query Profile { myProfile { rootRole { ...RoleFields } projects canChangePassword } }`,
      [RoleFields],
    ),
    respond: ({ myProfile: p }) => {
      return {
        rootRole: p.rootRole ? role(p.rootRole) : { id: 0, type: "root", name: "None", project: null },
        projects: p.projects,
        groups: [],
        features: [],
        subscriptions: [],
        canChangePassword: p.canChangePassword,
      };
    },
    schemas: {
      response: z.object({
        rootRole: roleSchema,
        projects: z.array(z.string()),
        groups: z.array(z.object({ name: z.string() })),
        features: z.array(z.object({ name: z.string() })),
        subscriptions: z.array(z.string()),
        canChangePassword: z.boolean(),
      }),
    },
    errors: [],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/user/roles",
    tag: "Users",
    summary: "The caller's roles: root role, then project roles (of `projectId` when given)",
    document: graphql(
      `query MyRoles($projectId: String) { myRoles(projectId: $projectId) { ...RoleFields } }`,
      [RoleFields],
    ),
    // An empty `projectId` is none.
    variables: { projectId: ({ query }) => query.get("projectId") || undefined },
    respond: (data) => ({ version: 1, roles: data.myRoles.map(role) }),
    schemas: {
      query: z.object({ projectId: z.string().optional() }),
      response: z.object({ version: z.literal(1), roles: z.array(roleSchema) }),
    },
    errors: [],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/user/change-password",
    tag: "Users",
    summary: "Change your own password",
    description:
      "Body `{password, confirmPassword, oldPassword}`. 400 when the two new ones differ or the password is weak or recently used; 401 when the old one is wrong. Ends your sessions.",
    document: graphql(
      `mutation ChangeMyPassword($input: ChangePasswordInput!) { changeMyPassword(input: $input) }`,
    ),
    variables: { input: (req) => ({ ...objectBody(req), password: password(req) }) },
    emptyBody: true,
    schemas: { body: passwordBody },
    errors: [400, 401],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/user-admin/validate-password",
    tag: "Users",
    summary: "Check a password against the strength rules",
    description: "200 with no body when strong; 400 listing each rule it breaks.",
    document: graphql(`query ValidatePassword($password: String!) { validatePassword(password: $password) }`),
    variables: { password },
    emptyBody: true,
    schemas: { body: passwordBody },
    errors: [400],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/user-admin/search",
    tag: "Users",
    summary: "Users whose name, username or email contains `q` (2 characters or more)",
    document: graphql(`query SearchUsers($q: String!) { searchUsers(query: $q) { ...UserFields } }`, [
      UserFields,
    ]),
    variables: { q: ({ query }) => query.get("q") ?? "" },
    respond: (data) => data.searchUsers.map(userBase),
    schemas: { query: z.object({ q: z.string().optional() }), response: z.array(userBaseSchema) },
    errors: [],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/user-admin/access",
    tag: "Users",
    summary: "Users (and groups: Vexil has none) as any caller may see them",
    document: graphql(`query UserAccess { userDirectory { ...UserFields } }`, [UserFields]),
    respond: (data) => ({ users: data.userDirectory.map(userBase), groups: [] }),
    schemas: {
      response: z.object({ users: z.array(userBaseSchema), groups: z.array(z.object({ name: z.string() })) }),
    },
    errors: [],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/user-admin/admin-count",
    tag: "Users",
    summary: "How many admins have a password, have none, or are service accounts (admins only)",
    document: graphql("query AdminCount { adminCount { password noPassword service } }"),
    errors: [403],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/user-admin/inactive",
    tag: "Users",
    summary: "Users not seen for 180 days (admins only)",
    document: graphql(`query InactiveUsers { inactiveUsers { ...UserFields patSeenAt } }`, [UserFields]),
    respond: (data) => ({
      version: 1,
      inactiveUsers: data.inactiveUsers.map((u) => ({
        id: u.id,
        name: u.name,
        ...(u.email ? { email: u.email } : {}),
        username: u.username,
        seenAt: u.seenAt,
        createdAt: u.createdAt,
        patSeenAt: u.patSeenAt ?? null,
      })),
    }),
    schemas: {
      response: z.object({
        version: z.literal(1),
        inactiveUsers: z.array(
          z.object({
            id: z.number().int().min(0),
            name: z.string().nullable(),
            email: z.string().optional(),
            username: z.string().nullable(),
            seenAt: z.string().datetime().nullable(),
            createdAt: z.string().datetime(),
            patSeenAt: z.string().datetime().nullable(),
          }),
        ),
      }),
    },
    errors: [403],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/user-admin/inactive/delete",
    tag: "Users",
    summary: "Delete the listed users that are inactive, never yourself (admins only)",
    description: "Body `{ids: [...]}`. Ids of active or unknown users are skipped. 200 with no body.",
    document: graphql("mutation DeleteInactiveUsers($ids: [Int!]!) { deleteInactiveUsers(ids: $ids) }"),
    variables: { ids: (req) => objectBody(req).ids },
    emptyBody: true,
    schemas: { body: z.strictObject({ ids: z.array(z.number().int().min(0)) }) },
    errors: [400, 403],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/user-admin/:id/change-password",
    tag: "Users",
    summary: "Set a user's password (admins only)",
    description:
      "Body `{password}`: must pass the strength rules. Ends the user's sessions. 200 with no body.",
    document: graphql(
      "mutation SetUserPassword($id: Int!, $password: String!) { setUserPassword(id: $id, password: $password) }",
    ),
    variables: { id: "path.id:int", password },
    emptyBody: true,
    schemas: { body: passwordBody },
  }),
]);
