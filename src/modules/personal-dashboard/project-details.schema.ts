import { builder } from "../../builder.ts";
import { OnboardingStatusRef } from "../project-insights/project-insights.schema.ts";
import { projectDetails } from "./project-details.read.ts";

type Details = Awaited<ReturnType<typeof projectDetails>>;

const DashboardEventRef = builder.objectRef<Details["latestEvents"][number]>("DashboardEvent").implement({
  description: "One of a project's newest events, as the dashboard shows it.",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "Event id." }),
    summary: t.exposeString("summary", { nullable: true, description: "Markdown summary." }),
    createdBy: t.exposeString("createdBy", { description: "Who made the change." }),
    createdByImageUrl: t.exposeString("createdByImageUrl", { description: "Their avatar URL." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When." }),
  }),
});

const OwnerRef = builder.objectRef<Details["owners"][number]>("DashboardOwner").implement({
  description: "An owner of a project: a user with the Owner role, or `system` when it has none.",
  fields: (t) => ({
    ownerType: t.exposeString("ownerType", { description: "`user` or `system`." }),
    name: t.exposeString("name", { nullable: true, description: "Display name; null for `system`." }),
    imageUrl: t.exposeString("imageUrl", { nullable: true, description: "Avatar URL." }),
    email: t.exposeString("email", { nullable: true, description: "Email." }),
  }),
});

const RoleRef = builder.objectRef<Details["roles"][number]>("DashboardRole").implement({
  description: "A role the caller holds in the project.",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "Role id." }),
    name: t.exposeString("name", { description: "Role name." }),
    type: t.exposeString("type", { description: "`project` (built-in) or `custom`." }),
  }),
});

const InsightsRef = builder.objectRef<Details["insights"]>("DashboardProjectInsights").implement({
  description: "A project's health on the dashboard.",
  fields: (t) => ({
    avgHealthCurrentWindow: t.exposeInt("avgHealthCurrentWindow", {
      nullable: true,
      description: "Mean health of the last 4 weeks; always null: Vexil keeps no health history.",
    }),
    avgHealthPastWindow: t.exposeInt("avgHealthPastWindow", {
      nullable: true,
      description: "Mean health of the 4 weeks before; always null: Vexil keeps no health history.",
    }),
    totalFlags: t.exposeInt("totalFlags", { description: "Active flags." }),
    activeFlags: t.exposeInt("activeFlags", {
      description: "Active flags neither stale nor potentially stale.",
    }),
    staleFlags: t.exposeInt("staleFlags", { description: "Stale flags." }),
    potentiallyStaleFlags: t.exposeInt("potentiallyStaleFlags", { description: "Potentially stale flags." }),
    health: t.exposeInt("health", { description: "0-100." }),
    technicalDebt: t.exposeInt("technicalDebt", { description: "100 - health." }),
  }),
});

const DetailsRef = builder.objectRef<Details>("PersonalDashboardProject").implement({
  description: "One project on the caller's dashboard.",
  fields: (t) => ({
    latestEvents: t.field({
      type: [DashboardEventRef],
      description: "10 newest events.",
      resolve: (d) => d.latestEvents,
    }),
    onboardingStatus: t.field({
      type: OnboardingStatusRef,
      description: "Onboarding.",
      resolve: (d) => d.onboardingStatus,
    }),
    owners: t.field({ type: [OwnerRef], description: "Owners.", resolve: (d) => d.owners }),
    roles: t.field({ type: [RoleRef], description: "The caller's roles in it.", resolve: (d) => d.roles }),
    insights: t.field({ type: InsightsRef, description: "Health.", resolve: (d) => d.insights }),
  }),
});

builder.queryField("personalDashboardProject", (t) =>
  t.field({
    type: DetailsRef,
    description: "One project on the caller's dashboard; NOT_FOUND for an unknown project.",
    authScopes: { authenticated: true },
    args: { projectId: t.arg.string({ required: true, description: "Project id." }) },
    resolve: (_root, args, ctx) =>
      projectDetails(ctx.db, ctx.config.publicUrl, args.projectId, ctx.principal?.userId ?? null),
  }),
);
