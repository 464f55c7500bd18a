import { builder } from "../../builder.ts";
import { imageOf } from "../users/avatars.logic.ts";
import { personalDashboard } from "./personal-dashboard.read.ts";

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
