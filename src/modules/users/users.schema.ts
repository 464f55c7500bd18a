import { builder } from "../../builder.ts";
import { integerKey, NODE_ID, type NodeAccess } from "../../shared/node-ids.ts";
import { runWrite } from "../../shared/write.ts";
import { requirePermission } from "../access/check.logic.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { imageOf } from "./avatars.logic.ts";
import { createResetLink } from "./password-reset.write.ts";
import { createUser, deleteUser, updateUser } from "./users.write.ts";

const ADMIN_ONLY = { permission: { permission: PERMISSIONS.ADMIN } };

export const UserRef = builder.prismaNode("User", {
  description:
    "A person who can log in (or a service identity, databaseId < 0). The password hash is never exposed.",
  id: { ...NODE_ID, field: "id" },
  nullable: true,
  findUnique: (id) => ({ id: integerKey(id) }),
  // as `user(id:)`: admins only, active users only
  extensions: {
    nodeAccess: {
      check: (ctx) => requirePermission(ctx, ADMIN_ONLY.permission),
      readable: (_ctx, user) => user.deletedAt === null,
    } satisfies NodeAccess<{ deletedAt: Date | null }>,
  },
  fields: (t) => ({
    databaseId: t.exposeInt("id", { description: "User id (-42: admin API token, -1337: the system)." }),
    username: t.exposeString("username", { nullable: true, description: "Login name, if any." }),
    email: t.exposeString("email", { nullable: true, description: "Email address (lower case), if any." }),
    name: t.exposeString("name", { nullable: true, description: "Display name." }),
    imageUrl: t.string({
      description: "Avatar URL: the user's image, else one Vexil generates for them.",
      resolve: (u, _args, ctx) => imageOf(ctx.config.publicUrl, u),
    }),
    rootRole: t.exposeString("rootRole", {
      description: "Root role: Admin, Editor, Viewer or a root-custom role.",
    }),
    isService: t.exposeBoolean("isService", { description: "A built-in identity that cannot log in." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the user was created." }),
    seenAt: t.expose("seenAt", {
      type: "DateTime",
      nullable: true,
      description: "Last login or session use.",
    }),
    isActive: t.boolean({
      description: "False once deleted.",
      select: { deletedAt: true },
      resolve: (u) => u.deletedAt === null,
    }),
    projectRoles: t.relation("projectMemberships", {
      description: "The project roles the user holds.",
      query: { orderBy: [{ projectId: "asc" }, { roleId: "asc" }] },
    }),
  }),
});

builder.prismaObject("ProjectMember", {
  description: "A user's role in one project.",
  fields: (t) => ({
    projectId: t.exposeString("projectId", { description: "Project id." }),
    userId: t.exposeInt("userId", { description: "User id." }),
    role: t.relation("role", { description: "The project role." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the role was given." }),
  }),
});

builder.queryField("users", (t) =>
  t.prismaField({
    type: ["User"],
    description: "Every active user who can log in, by id (admins only).",
    authScopes: ADMIN_ONLY,
    resolve: (query, _root, _args, ctx) =>
      ctx.db.user.findMany({
        ...query,
        where: { deletedAt: null, isService: false },
        orderBy: { id: "asc" },
      }),
  }),
);

builder.queryField("user", (t) =>
  t.prismaField({
    type: "User",
    nullable: true,
    description: "One user by id, or null (admins only).",
    authScopes: ADMIN_ONLY,
    args: { id: t.arg.int({ required: true, description: "User id." }) },
    resolve: (query, _root, args, ctx) =>
      ctx.db.user.findFirst({ ...query, where: { id: args.id, deletedAt: null } }),
  }),
);

const CreateUserInput = builder.inputType("CreateUserInput", {
  description: "A new user: an email or a username (or both).",
  fields: (t) => ({
    email: t.string({ description: "Email address." }),
    username: t.string({ description: "Login name (no spaces, no @)." }),
    name: t.string({ description: "Display name." }),
    imageUrl: t.string({ description: "Avatar URL." }),
    rootRole: t.string({
      description: "Root role name, or its id (1 Admin, 2 Editor, 3 Viewer, as Unleash); default Viewer.",
    }),
    password: t.string({
      description: "Initial password (must pass the strength rules); else send a reset link.",
    }),
  }),
});

const UpdateUserInput = builder.inputType("UpdateUserInput", {
  description: "Fields to change; absent fields stay as they are.",
  fields: (t) => ({
    email: t.string({ description: "Email address." }),
    name: t.string({ description: "Display name." }),
    imageUrl: t.string({ description: "Avatar URL." }),
    rootRole: t.string({ description: "Root role name, or its id." }),
  }),
});

builder.mutationField("createUser", (t) =>
  t.prismaField({
    type: "User",
    description: "Creates a user (admins only); records user-created.",
    authScopes: ADMIN_ONLY,
    args: { input: t.arg({ type: CreateUserInput, required: true, description: "The user." }) },
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        const user = await createUser(w, args.input);
        return w.tx.user.findUniqueOrThrow({ ...query, where: { id: user.id } });
      });
    },
  }),
);

builder.mutationField("updateUser", (t) =>
  t.prismaField({
    type: "User",
    description: "Changes a user (admins only); records user-updated.",
    authScopes: ADMIN_ONLY,
    args: {
      id: t.arg.int({ required: true, description: "User id." }),
      input: t.arg({ type: UpdateUserInput, required: true, description: "The changes." }),
    },
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        await updateUser(w, args.id, args.input);
        return w.tx.user.findUniqueOrThrow({ ...query, where: { id: args.id } });
      });
    },
  }),
);

builder.mutationField("deleteUser", (t) =>
  t.boolean({
    description: "Deletes a user (admins only): ends their sessions and tokens; records user-deleted.",
    authScopes: ADMIN_ONLY,
    args: { id: t.arg.int({ required: true, description: "User id." }) },
    resolve: async (_root, args, ctx) => {
      await runWrite(ctx, (w) => deleteUser(w, args.id));
      return true;
    },
  }),
);

const ResetLinkRef = builder.objectRef<{ resetPasswordUrl: string }>("ResetPasswordLink").implement({
  description: "A single-use password reset link (spec 2.16), valid 24 hours.",
  fields: (t) => ({
    resetPasswordUrl: t.exposeString("resetPasswordUrl", { description: "The link to hand to the user." }),
  }),
});

builder.mutationField("createResetPasswordLink", (t) =>
  t.field({
    type: ResetLinkRef,
    description:
      "Makes a password reset link for the user with this email (admins only, spec 4.3). Unknown email: NOT_FOUND; again within a minute: RATE_LIMITED.",
    authScopes: ADMIN_ONLY,
    args: { email: t.arg.string({ required: true, description: "The user's email." }) },
    resolve: (_root, args, ctx) => runWrite(ctx, (w) => createResetLink(w, { id: args.email })),
  }),
);
