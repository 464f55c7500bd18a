import { z } from "zod";
import { NotFoundError, ValidationError } from "../../src/shared/errors.ts";
import { objectBody } from "../body-fields.ts";
import { graphql } from "../graphql.ts";
import { resultSchema } from "../result-schema.ts";
import { defineRoutes, type RestRequest, typedRoute } from "../route.ts";

const AdminUserFields = graphql(`
  fragment AdminUserFields on User {
    id: databaseId username email name imageUrl rootRole isService createdAt seenAt isActive
  }
`);
const RoleWithPermissionsFields = graphql(
  `fragment RoleWithPermissionsFields on Role { id name description type permissions { name environment } }`,
);

const userSchema = resultSchema(AdminUserFields);
const roleSchema = resultSchema(RoleWithPermissionsFields);
const userBody = z.object({
  email: z.string().optional(),
  username: z.string().optional(),
  name: z.string().optional(),
  imageUrl: z.string().optional(),
  rootRole: z.union([z.string(), z.number().int()]).optional(),
  password: z.string().optional(),
  sendEmail: z.boolean().optional().describe("Accepted and ignored: Vexil sends no email."),
});
/** Unleash's createUserSchema refuses other fields (400); `imageUrl` is Vexil's own. */
const createUserBody = z.strictObject(userBody.shape);
const roleBody = z.object({
  name: z.string(),
  description: z.string().optional(),
  type: z.enum(["custom", "root-custom"]).optional(),
  permissions: z.array(z.object({ name: z.string(), environment: z.string().optional() })).optional(),
});

/** A user body as GraphQL's input: Unleash scripts send the root role as its id. */
function userInput(req: RestRequest): Record<string, unknown> {
  const body = objectBody(req);
  return typeof body.rootRole === "number" ? { ...body, rootRole: String(body.rootRole) } : body;
}

export const userRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/user",
    tag: "Users",
    summary: "The calling user and their permissions",
    document: graphql(
      `query Me { viewer { name rootRole user { ...AdminUserFields } permissions { permission project environment } } }`,
      [AdminUserFields],
    ),
    // A credential without a user (an admin token) is shown by its name and root role.
    respond: ({ viewer: v }) => ({
      user: v.user ?? { name: v.name, rootRole: v.rootRole },
      permissions: v.permissions,
    }),
    schemas: {
      response: z.object({
        user: z.union([userSchema, z.object({ name: z.string(), rootRole: z.string().nullable() })]),
        permissions: z.array(
          z.object({
            permission: z.string(),
            project: z.string().nullable(),
            environment: z.string().nullable(),
          }),
        ),
      }),
    },
    errors: [],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/user-admin",
    tag: "Users",
    summary: "List users (admins only)",
    document: graphql(`query Users { users { ...AdminUserFields } roles { ...RoleWithPermissionsFields } }`, [
      AdminUserFields,
      RoleWithPermissionsFields,
    ]),
    respond: (data) => ({
      users: data.users,
      rootRoles: data.roles.filter((r) => r.type === "root" || r.type === "root-custom"),
    }),
    schemas: { response: z.object({ users: z.array(userSchema), rootRoles: z.array(roleSchema) }) },
    errors: [403],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/user-admin",
    tag: "Users",
    summary: "Create a user (admins only)",
    status: 201,
    document: graphql(
      `mutation CreateUser($input: CreateUserInput!) { createUser(input: $input) { ...AdminUserFields } }`,
      [AdminUserFields],
    ),
    variables: { input: userInput },
    schemas: { body: createUserBody, response: userSchema },
    errors: [400, 403, 409],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/user-admin/:id",
    tag: "Users",
    summary: "Get a user (admins only)",
    document: graphql(`query User($id: Int!) { user(id: $id) { ...AdminUserFields } }`, [AdminUserFields]),
    variables: { id: "path.id:int" },
    respond: ({ user }, req) => {
      if (!user) throw new NotFoundError(`Could not find user with id ${req.params.id}`);
      return user;
    },
    schemas: { response: userSchema },
  }),
  typedRoute({
    method: "PUT",
    path: "/api/admin/user-admin/:id",
    tag: "Users",
    summary: "Update a user (admins only)",
    document: graphql(
      `mutation UpdateUser($id: Int!, $input: UpdateUserInput!) { updateUser(id: $id, input: $input) { ...AdminUserFields } }`,
      [AdminUserFields],
    ),
    variables: { id: "path.id:int", input: userInput },
    schemas: { body: userBody.omit({ username: true, password: true }), response: userSchema },
  }),
  typedRoute({
    method: "DELETE",
    path: "/api/admin/user-admin/:id",
    tag: "Users",
    summary: "Delete a user (admins only)",
    document: graphql(`mutation DeleteUser($id: Int!) { deleteUser(id: $id) }`),
    variables: { id: "path.id:int" },
    emptyBody: true,
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/user-admin/reset-password",
    tag: "Users",
    summary: "Make a password reset link for a user (spec 4.3, admins only)",
    description:
      "Body `{id: <email>}`. 200 `{resetPasswordUrl}`: single use, valid 24 hours. The user is looked up by email only (as Unleash): an unknown email or a username is 404; a non-string `id`: 400; again within a minute: 429.",
    bodyPaths: { email: "id" },
    document: graphql(
      `mutation ResetLink($email: String!) { createResetPasswordLink(email: $email) { resetPasswordUrl } }`,
    ),
    variables: {
      // Unleash names the user by `id`, which holds their email.
      email: (req) => {
        const id = objectBody(req).id;
        if (typeof id !== "string") throw new ValidationError('"id" must be the user\'s email (a string).');
        return id;
      },
    },
    schemas: {
      body: z.strictObject({
        id: z.string().describe("The user's email (a username finds nobody, as in Unleash)."),
      }),
      response: z.object({ resetPasswordUrl: z.string().url() }),
    },
    errors: [400, 403, 404, 429],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/roles",
    tag: "Roles",
    summary: "List roles",
    document: graphql(`query Roles { roles { ...RoleWithPermissionsFields } }`, [RoleWithPermissionsFields]),
    respond: (data) => ({ version: 1, roles: data.roles }),
    schemas: { response: z.object({ version: z.literal(1), roles: z.array(roleSchema) }) },
    errors: [],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/roles",
    tag: "Roles",
    summary: "Create a custom role (admins only)",
    status: 201,
    document: graphql(
      `mutation CreateRole($input: RoleInput!) { createRole(input: $input) { ...RoleWithPermissionsFields } }`,
      [RoleWithPermissionsFields],
    ),
    variables: { input: "body:object" },
    schemas: { body: roleBody, response: roleSchema },
    errors: [400, 403, 404, 409],
  }),
  typedRoute({
    method: "PUT",
    path: "/api/admin/roles/:id",
    tag: "Roles",
    summary: "Replace a custom role (admins only)",
    document: graphql(
      `mutation UpdateRole($id: Int!, $input: RoleInput!) { updateRole(id: $id, input: $input) { ...RoleWithPermissionsFields } }`,
      [RoleWithPermissionsFields],
    ),
    variables: { id: "path.id:int", input: "body:object" },
    schemas: { body: roleBody, response: roleSchema },
    errors: [400, 403, 404, 409],
  }),
  typedRoute({
    method: "DELETE",
    path: "/api/admin/roles/:id",
    tag: "Roles",
    summary: "Delete a custom role nobody holds (admins only)",
    document: graphql(`mutation DeleteRole($id: Int!) { deleteRole(id: $id) }`),
    variables: { id: "path.id:int" },
    emptyBody: true,
    errors: [403, 404, 409],
  }),
]);
