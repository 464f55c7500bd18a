import { builder } from "../../builder.ts";
import type { Grant } from "../access/principal.types.ts";
import { imageOf } from "../users/avatars.plugin.ts";
import { myFlagNames, myProjectIds, personalDashboard } from "./personal-dashboard.read.ts";

type Dashboard = Awaited<ReturnType<typeof personalDashboard>>;

const DashboardAdminRef = builder.objectRef<Dashboard["admins"][number]>("DashboardAdmin").implement({
  description: "A user with the root role Admin.",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "User id." }),
    name: t.exposeString("name", { nullable: true, description: "Display name." }),
    username: t.exposeString("username", { nullable: true, description: "Login name." }),
    imageUrl: t.string({
      description: "Avatar URL: the user's image, else one Vexil generates for them.",
      resolve: (u, _args, ctx) => imageOf(ctx.config.publicUrl, u),
    }),
    email: t.string({ description: "Email; empty when the user has none.", resolve: (u) => u.email ?? "" }),
  }),
});

const DashboardOwnerRef = builder
  .objectRef<Dashboard["projectOwners"][number]>("DashboardProjectOwner")
  .implement({
    description: "An owner of one of the caller's projects.",
    fields: (t) => ({
      ownerType: t.exposeString("ownerType", { description: "Always `user`." }),
      name: t.exposeString("name", { description: "Display name." }),
      imageUrl: t.exposeString("imageUrl", { nullable: true, description: "Avatar URL." }),
      email: t.exposeString("email", { nullable: true, description: "Email." }),
    }),
  });

const DashboardProjectRef = builder.objectRef<Dashboard["projects"][number]>("DashboardProject").implement({
  description: "A project the caller holds a role in (or favourited).",
  fields: (t) => ({
    id: t.exposeString("id", { description: "Project id." }),
    name: t.exposeString("name", { description: "Project name." }),
    health: t.exposeInt("health", { description: "Health, 0-100." }),
    memberCount: t.exposeInt("memberCount", { description: "Users holding a role in it." }),
    featureCount: t.exposeInt("featureCount", { description: "Active flags." }),
  }),
});

const DashboardFlagRef = builder.objectRef<Dashboard["flags"][number]>("DashboardFlag").implement({
  description: "A flag the caller created or favourited.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Flag name." }),
    project: t.exposeString("project", { description: "Project id." }),
    type: t.exposeString("type", { description: "Flag type." }),
  }),
});

const PersonalDashboardRef = builder.objectRef<Dashboard>("PersonalDashboard").implement({
  description: "The caller's personal dashboard (spec 2.15).",
  fields: (t) => ({
    admins: t.field({ type: [DashboardAdminRef], description: "Admins.", resolve: (d) => d.admins }),
    projectOwners: t.field({
      type: [DashboardOwnerRef],
      description: "Owners of the caller's projects.",
      resolve: (d) => d.projectOwners,
    }),
    projects: t.field({
      type: [DashboardProjectRef],
      description: "The caller's projects.",
      resolve: (d) => d.projects,
    }),
    flags: t.field({
      type: [DashboardFlagRef],
      description: "Flags created or favourited.",
      resolve: (d) => d.flags,
    }),
  }),
});

builder.queryField("personalDashboard", (t) =>
  t.field({
    type: PersonalDashboardRef,
    description: "The caller's dashboard (spec 4.10); empty personal lists for credentials without a user.",
    authScopes: { authenticated: true },
    resolve: (_root, _args, ctx) => personalDashboard(ctx.db, ctx.principal?.userId ?? null),
  }),
);

const GrantRef = builder.objectRef<Grant>("Grant").implement({
  description: "A permission the caller holds, and where.",
  fields: (t) => ({
    permission: t.exposeString("permission", { description: "Permission name (ADMIN passes every check)." }),
    project: t.exposeString("project", { nullable: true, description: "The project; null: every project." }),
    environment: t.exposeString("environment", {
      nullable: true,
      description: "The environment; null: all.",
    }),
  }),
});

type ViewerShape = {
  kind: string;
  via: string;
  name: string;
  userId: number | null;
  rootRole: string | null;
  grants: Grant[];
};

const ViewerRef = builder.objectRef<ViewerShape>("Viewer").implement({
  description: "The caller: who they are, what they may do, their projects and flags.",
  fields: (t) => ({
    kind: t.exposeString("kind", { description: "user, admin-token, client-token or frontend-token." }),
    via: t.exposeString("via", { description: "api-token, pat or session." }),
    name: t.exposeString("name", { description: "Name written to events." }),
    rootRole: t.exposeString("rootRole", { nullable: true, description: "Root role." }),
    permissions: t.field({ type: [GrantRef], description: "Permissions held.", resolve: (v) => v.grants }),
    user: t.prismaField({
      type: "User",
      nullable: true,
      description: "The user behind the credential; null for API tokens.",
      resolve: (query, v, _args, ctx) =>
        v.userId === null || v.userId < 0
          ? null
          : ctx.db.user.findUnique({ ...query, where: { id: v.userId } }),
    }),
    projects: t.prismaField({
      type: ["Project"],
      description: "Active projects the caller holds a role in or favourited.",
      resolve: async (query, v, _args, ctx) =>
        ctx.db.project.findMany({
          ...query,
          where: { id: { in: await myProjectIds(ctx.db, v.userId) } },
          orderBy: { name: "asc" },
        }),
    }),
    flags: t.prismaField({
      type: ["Feature"],
      description: "Active flags the caller created or favourited, newest first (at most 100).",
      resolve: async (query, v, _args, ctx) =>
        ctx.db.feature.findMany({
          ...query,
          where: { name: { in: await myFlagNames(ctx.db, v.userId) } },
          orderBy: [{ createdAt: "desc" }, { name: "asc" }],
        }),
    }),
  }),
});

builder.queryField("viewer", (t) =>
  t.field({
    type: ViewerRef,
    description: "The caller (me, my permissions, my projects, my flags).",
    authScopes: { authenticated: true },
    resolve: (_root, _args, ctx) => ctx.principal as ViewerShape,
  }),
);
