import { builder } from "../../builder.ts";
import type { Context } from "../../context.ts";
import type { User } from "../../generated/prisma/client.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import {
  adminCount,
  changeOwnPassword,
  deleteInactiveUsers,
  inactiveUsers,
  searchUsers,
  setUserPassword,
} from "./account.write.ts";
import { imageOf } from "./avatars.logic.ts";
import { assertStrongPassword } from "./password-policy.logic.ts";

const ADMIN_ONLY = { permission: { permission: PERMISSIONS.ADMIN } };

type UserRow = Pick<
  User,
  "id" | "name" | "email" | "username" | "imageUrl" | "rootRole" | "createdAt" | "seenAt"
>;
type UserListingShape = UserRow & { rootRoleId: number | null; patSeenAt?: Date | null };

/** Attaches each user's root role id (one query for all of them). */
async function withRoleIds<T extends UserRow>(ctx: Context, users: T[]) {
  const roles = await ctx.db.role.findMany({
    where: { name: { in: [...new Set(users.map((u) => u.rootRole))] } },
    select: { id: true, name: true },
  });
  const ids = new Map(roles.map((r) => [r.name, r.id]));
  return users.map((u) => ({ ...u, rootRoleId: ids.get(u.rootRole) ?? null }));
}

const UserListingRef = builder.objectRef<UserListingShape>("UserListing").implement({
  description: "What any caller may see of a user (search, pickers, inactive-user lists): no secrets.",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "User id." }),
    name: t.exposeString("name", { nullable: true, description: "Display name." }),
    email: t.exposeString("email", { nullable: true, description: "Email, if any." }),
    username: t.exposeString("username", { nullable: true, description: "Login name, if any." }),
    imageUrl: t.string({
      description: "Avatar URL: the user's image, else one Vexil generates for them.",
      resolve: (u, _args, ctx) => imageOf(ctx.config.publicUrl, u),
    }),
    rootRole: t.exposeString("rootRole", { description: "Root role name." }),
    rootRoleId: t.exposeInt("rootRoleId", { nullable: true, description: "Root role id." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the user was created." }),
    seenAt: t.expose("seenAt", {
      type: "DateTime",
      nullable: true,
      description: "Last login or session use.",
    }),
    patSeenAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "Last use of one of the user's personal access tokens.",
      resolve: (u) => u.patSeenAt ?? null,
    }),
  }),
});

type RoleShape = {
  id: number;
  name: string;
  type: string;
  description: string | null;
  project: string | null;
};
const UserRoleRef = builder.objectRef<RoleShape>("UserRole").implement({
  description: "A role the caller holds: their root role, or a role in one project.",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "Role id." }),
    name: t.exposeString("name", { description: "Role name." }),
    type: t.exposeString("type", { description: "root, root-custom, project or custom." }),
    description: t.exposeString("description", { nullable: true, description: "Free text." }),
    project: t.exposeString("project", { nullable: true, description: "The project (project roles)." }),
  }),
});

type ProfileShape = { rootRole: RoleShape | null; projects: string[]; canChangePassword: boolean };
const ProfileRef = builder.objectRef<ProfileShape>("Profile").implement({
  description: "The caller's root role and the projects they hold a role in.",
  fields: (t) => ({
    rootRole: t.expose("rootRole", {
      type: UserRoleRef,
      nullable: true,
      description: "Root role (null for client and frontend tokens).",
    }),
    projects: t.exposeStringList("projects", {
      description: "Ids of the projects the caller is a member of.",
    }),
    canChangePassword: t.exposeBoolean("canChangePassword", {
      description: "A user with password login available (false for API tokens).",
    }),
  }),
});

const AdminCountRef = builder
  .objectRef<{ password: number; noPassword: number; service: number }>("AdminCount")
  .implement({
    description: "How many users hold the root role Admin.",
    fields: (t) => ({
      password: t.exposeInt("password", { description: "Admins with a password." }),
      noPassword: t.exposeInt("noPassword", { description: "Admins without a password." }),
      service: t.exposeInt("service", { description: "Admin service accounts (Vexil has none)." }),
    }),
  });

async function rolesOf(ctx: Context, projectId?: string | null): Promise<RoleShape[]> {
  const principal = ctx.principal;
  if (!principal) return [];
  const root = principal.rootRole
    ? await ctx.db.role.findUnique({ where: { name: principal.rootRole } })
    : null;
  const memberships =
    principal.userId !== null
      ? await ctx.db.projectMember.findMany({
          where: { userId: principal.userId, ...(projectId ? { projectId } : {}) },
          include: { role: true },
          orderBy: [{ projectId: "asc" }, { roleId: "asc" }],
        })
      : [];
  return [
    ...(root ? [{ ...root, project: null }] : []),
    ...memberships.map((m) => ({ ...m.role, project: m.projectId })),
  ];
}

builder.queryField("myProfile", (t) =>
  t.field({
    type: ProfileRef,
    description: "The caller's root role and project memberships (Unleash's user profile).",
    authScopes: { authenticated: true },
    resolve: async (_root, _args, ctx) => {
      const roles = await rolesOf(ctx);
      const principal = ctx.principal;
      return {
        rootRole: roles.find((r) => r.project === null) ?? null,
        projects: [...new Set(roles.flatMap((r) => (r.project ? [r.project] : [])))],
        canChangePassword: principal?.kind === "user" && !ctx.config.auth.disablePasswordAuth,
      };
    },
  }),
);

builder.queryField("myRoles", (t) =>
  t.field({
    type: [UserRoleRef],
    description: "The roles the caller holds: the root role, then project roles (of one project when given).",
    authScopes: { authenticated: true },
    args: { projectId: t.arg.string({ description: "Only the roles in this project (and the root role)." }) },
    resolve: (_root, args, ctx) => rolesOf(ctx, args.projectId),
  }),
);

builder.queryField("validatePassword", (t) =>
  t.boolean({
    description:
      "True when the password passes the strength rules; else VALIDATION listing each rule it breaks.",
    authScopes: { authenticated: true },
    args: { password: t.arg.string({ required: true, description: "The candidate password." }) },
    resolve: (_root, args) => {
      assertStrongPassword(args.password);
      return true;
    },
  }),
);

builder.queryField("searchUsers", (t) =>
  t.field({
    type: [UserListingRef],
    description:
      "Users whose name, username or email contains the text (at least 2 characters), at most 100.",
    authScopes: { authenticated: true },
    args: { query: t.arg.string({ required: true, description: "Text to look for." }) },
    resolve: async (_root, args, ctx) => withRoleIds(ctx, await searchUsers(ctx.db, args.query)),
  }),
);

builder.queryField("userDirectory", (t) =>
  t.field({
    type: [UserListingRef],
    description: "Every active user, by id: what any caller may see of them (to pick people).",
    authScopes: { authenticated: true },
    resolve: async (_root, _args, ctx) =>
      withRoleIds(
        ctx,
        await ctx.db.user.findMany({ where: { deletedAt: null, isService: false }, orderBy: { id: "asc" } }),
      ),
  }),
);

builder.queryField("adminCount", (t) =>
  t.field({
    type: AdminCountRef,
    description: "How many admins there are (admins only).",
    authScopes: ADMIN_ONLY,
    resolve: (_root, _args, ctx) => adminCount(ctx.db),
  }),
);

builder.queryField("inactiveUsers", (t) =>
  t.field({
    type: [UserListingRef],
    description: "Users not seen for 180 days (login, session or personal access token); admins only.",
    authScopes: ADMIN_ONLY,
    resolve: async (_root, _args, ctx) => withRoleIds(ctx, await inactiveUsers(ctx.db, ctx.now())),
  }),
);

const ChangePasswordInput = builder.inputType("ChangePasswordInput", {
  description: "A new password for the caller.",
  fields: (t) => ({
    password: t.string({ required: true, description: "The new password." }),
    confirmPassword: t.string({ description: "The new password again; must be equal." }),
    oldPassword: t.string({ description: "The current password." }),
  }),
});

builder.mutationField("changeMyPassword", (t) =>
  t.boolean({
    description:
      "The calling user changes their password (old one required; 401 when wrong); ends their sessions. No event.",
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: ChangePasswordInput, required: true, description: "The passwords." }) },
    resolve: async (_root, args, ctx) => {
      const principal = ctx.principal;
      if (!principal) return false;
      await runWrite(ctx, (w) => changeOwnPassword(w, principal, args.input));
      return true;
    },
  }),
);

builder.mutationField("setUserPassword", (t) =>
  t.boolean({
    description: "Sets a user's password (admins only; must be strong); ends their sessions. No event.",
    authScopes: ADMIN_ONLY,
    args: {
      id: t.arg.int({ required: true, description: "User id." }),
      password: t.arg.string({ required: true, description: "The new password." }),
    },
    resolve: async (_root, args, ctx) => {
      await runWrite(ctx, (w) => setUserPassword(w, args.id, args.password));
      return true;
    },
  }),
);

builder.mutationField("deleteInactiveUsers", (t) =>
  t.int({
    description:
      "Deletes the given users that are inactive, never the caller (admins only); records user-deleted for each. Returns how many.",
    authScopes: ADMIN_ONLY,
    args: { ids: t.arg.intList({ required: true, description: "User ids." }) },
    resolve: (_root, args, ctx) => runWrite(ctx, (w) => deleteInactiveUsers(w, args.ids)),
  }),
);
