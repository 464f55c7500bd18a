import { builder } from "../../builder.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { addProjectMember, removeProjectMember } from "./project-members.write.ts";
import { createRole, deleteRole, updateRole } from "./roles.write.ts";

const ADMIN_ONLY = { permission: { permission: PERMISSIONS.ADMIN } };

builder.prismaObject("Permission", {
  description: "A named permission (Unleash's names).",
  fields: (t) => ({
    name: t.exposeString("name", { description: "E.g. UPDATE_FEATURE_STRATEGY." }),
    displayName: t.exposeString("displayName", { description: "Human name." }),
    type: t.exposeString("type", { description: "root, project or environment: where it can be scoped." }),
  }),
});

builder.prismaObject("RolePermission", {
  description: "One permission of a role, possibly limited to one environment.",
  fields: (t) => ({
    name: t.exposeString("permissionName", { description: "Permission name." }),
    environment: t.string({
      nullable: true,
      description: "The environment it is limited to; null: every environment.",
      select: { environmentName: true },
      resolve: (p) => p.environmentName || null,
    }),
  }),
});

builder.prismaObject("Role", {
  description: "A role: root (Admin, Editor, Viewer), root-custom, project (Owner, Member) or custom.",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "Role id." }),
    name: t.exposeString("name", { description: "Unique name." }),
    description: t.exposeString("description", { nullable: true, description: "Free text." }),
    type: t.exposeString("type", { description: "root, root-custom, project or custom." }),
    permissions: t.relation("permissions", {
      description: "What holders may do (Admin: ADMIN, which passes every check).",
      query: { orderBy: [{ permissionName: "asc" }, { environmentName: "asc" }] },
    }),
  }),
});

builder.queryField("roles", (t) =>
  t.prismaField({
    type: ["Role"],
    description: "Every role, predefined first (by id).",
    authScopes: { authenticated: true },
    resolve: (query, _root, _args, ctx) => ctx.db.role.findMany({ ...query, orderBy: { id: "asc" } }),
  }),
);

builder.queryField("permissions", (t) =>
  t.prismaField({
    type: ["Permission"],
    description: "Every permission a custom role can be made of.",
    authScopes: { authenticated: true },
    resolve: (query, _root, _args, ctx) => ctx.db.permission.findMany({ ...query, orderBy: { name: "asc" } }),
  }),
);

const RolePermissionInput = builder.inputType("RolePermissionInput", {
  description: "A permission of a custom role.",
  fields: (t) => ({
    name: t.string({ required: true, description: "Permission name." }),
    environment: t.string({ description: "Limit an environment permission to this environment." }),
  }),
});

const RoleInput = builder.inputType("RoleInput", {
  description: "A custom role.",
  fields: (t) => ({
    name: t.string({ required: true, description: "Unique name." }),
    description: t.string({ description: "Free text." }),
    type: t.string({ description: "custom (project role, default) or root-custom." }),
    permissions: t.field({ type: [RolePermissionInput], description: "Its permissions." }),
  }),
});

builder.mutationField("createRole", (t) =>
  t.prismaField({
    type: "Role",
    description: "Creates a custom role (admins only); records role-created.",
    authScopes: ADMIN_ONLY,
    args: { input: t.arg({ type: RoleInput, required: true, description: "The role." }) },
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        const role = await createRole(w, args.input);
        return w.tx.role.findUniqueOrThrow({ ...query, where: { id: role.id } });
      });
    },
  }),
);

builder.mutationField("updateRole", (t) =>
  t.prismaField({
    type: "Role",
    description: "Replaces a custom role (admins only); records role-updated.",
    authScopes: ADMIN_ONLY,
    args: {
      id: t.arg.int({ required: true, description: "Role id." }),
      input: t.arg({ type: RoleInput, required: true, description: "The new definition." }),
    },
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        await updateRole(w, args.id, args.input);
        return w.tx.role.findUniqueOrThrow({ ...query, where: { id: args.id } });
      });
    },
  }),
);

builder.mutationField("deleteRole", (t) =>
  t.boolean({
    description: "Deletes a custom role nobody holds (admins only); records role-deleted.",
    authScopes: ADMIN_ONLY,
    args: { id: t.arg.int({ required: true, description: "Role id." }) },
    resolve: async (_root, args, ctx) => {
      await runWrite(ctx, (w) => deleteRole(w, args.id));
      return true;
    },
  }),
);

const membershipArgs = (t: Parameters<Parameters<typeof builder.mutationField>[1]>[0]) => ({
  project: t.arg.string({ required: true, description: "Project id." }),
  userId: t.arg.int({ required: true, description: "User id." }),
  roleId: t.arg.int({ required: true, description: "A project or custom role id." }),
});

builder.mutationField("addProjectMember", (t) =>
  t.boolean({
    description:
      "Gives a user a role in a project (needs UPDATE_PROJECT there, and every permission of the role there: FORBIDDEN otherwise); records project-user-added.",
    args: membershipArgs(t),
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.UPDATE_PROJECT, project: args.project },
    }),
    resolve: async (_root, args, ctx) => {
      await runWrite(ctx, (w) => addProjectMember(w, ctx.principal, args));
      return true;
    },
  }),
);

builder.mutationField("removeProjectMember", (t) =>
  t.boolean({
    description:
      "Takes a project role from a user (needs UPDATE_PROJECT there); records project-user-removed.",
    args: membershipArgs(t),
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.UPDATE_PROJECT, project: args.project },
    }),
    resolve: async (_root, args, ctx) => {
      await runWrite(ctx, (w) => removeProjectMember(w, args.project, args.userId, args.roleId));
      return true;
    },
  }),
);
