import { builder } from "../../builder.ts";
import {
  doraMetrics,
  flagCreators,
  type LeadTime,
  projectInsights,
  projectStatus,
} from "./project-insights.read.ts";

type Status = Awaited<ReturnType<typeof projectStatus>>;
type Insights = Awaited<ReturnType<typeof projectInsights>>;
type Dora = Awaited<ReturnType<typeof doraMetrics>>;
type StageSummary = Status["lifecycle"]["initial"];
type Rating = Insights["health"];

const FlagCreatorRef = builder.objectRef<{ id: number; name: string }>("ProjectFlagCreator").implement({
  description: "A user who created one of the project's active flags.",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "User id." }),
    name: t.exposeString("name", { description: "Name, else username, else email." }),
  }),
});

const LeadTimeRef = builder.objectRef<LeadTime>("FeatureLeadTime").implement({
  description: "How long one flag took to reach production.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Flag name." }),
    timeToProduction: t.exposeFloat("timeToProduction", {
      description: "Whole days from the flag's creation to its first enabling in a production environment.",
    }),
  }),
});

const DoraRef = builder.objectRef<Dora>("ProjectDoraMetrics").implement({
  description: "DORA lead time of a project, from its event log.",
  fields: (t) => ({
    projectAverage: t.exposeFloat("projectAverage", {
      nullable: true,
      description: "Mean time to production of the flags below, in days; null when none reached production.",
    }),
    features: t.field({
      type: [LeadTimeRef],
      description: "Active flags that were enabled in a production environment, by name.",
      resolve: (d) => d.features,
    }),
  }),
});

const ActivityRef = builder.objectRef<Status["activityCountByDate"][number]>("ProjectActivityDay").implement({
  description: "How many events the project recorded on one day (UTC).",
  fields: (t) => ({
    date: t.exposeString("date", { description: "The day, YYYY-MM-DD." }),
    count: t.exposeInt("count", { description: "Events that day." }),
  }),
});

const ResourcesRef = builder.objectRef<Status["resources"]>("ProjectResources").implement({
  description: "What belongs to a project besides flags.",
  fields: (t) => ({
    apiTokens: t.exposeInt("apiTokens", { description: "API tokens scoped to this project (not `*` ones)." }),
    members: t.exposeInt("members", { description: "Users holding a role in the project." }),
    segments: t.exposeInt("segments", { description: "Segments of the project." }),
  }),
});

const StageSummaryRef = builder.objectRef<StageSummary>("LifecycleStageSummary").implement({
  description: "A lifecycle stage in a project.",
  fields: (t) => ({
    averageDays: t.exposeFloat("averageDays", {
      nullable: true,
      description:
        "Mean days the project's flags spent in this stage before a later one; null when none left it.",
    }),
    currentFlags: t.exposeInt("currentFlags", { description: "Active flags in this stage now." }),
  }),
});

const ArchivedSummaryRef = builder
  .objectRef<Status["lifecycle"]["archived"]>("ArchivedStageSummary")
  .implement({
    description: "The archived flags of a project.",
    fields: (t) => ({
      currentFlags: t.exposeInt("currentFlags", { description: "Archived flags." }),
      last30Days: t.exposeInt("last30Days", { description: "Flags archived in the last 30 days." }),
    }),
  });

const LifecycleRef = builder.objectRef<Status["lifecycle"]>("ProjectLifecycleSummary").implement({
  description: "A project's flags per lifecycle stage.",
  fields: (t) => ({
    initial: t.field({ type: StageSummaryRef, description: "Define.", resolve: (l) => l.initial }),
    preLive: t.field({ type: StageSummaryRef, description: "Develop.", resolve: (l) => l.preLive }),
    live: t.field({ type: StageSummaryRef, description: "Production.", resolve: (l) => l.live }),
    completed: t.field({ type: StageSummaryRef, description: "Cleanup.", resolve: (l) => l.completed }),
    archived: t.field({ type: ArchivedSummaryRef, description: "Archived.", resolve: (l) => l.archived }),
  }),
});

const StatusRef = builder.objectRef<Status>("ProjectStatus").implement({
  description: "A project's status page: activity, resources, health and lifecycle.",
  fields: (t) => ({
    activityCountByDate: t.field({
      type: [ActivityRef],
      description: "Events per day over the last year, days with events only, oldest first.",
      resolve: (s) => s.activityCountByDate,
    }),
    resources: t.field({ type: ResourcesRef, description: "Resource counts.", resolve: (s) => s.resources }),
    health: t.exposeInt("health", { description: "Share (0-100) of active flags not (potentially) stale." }),
    technicalDebt: t.exposeInt("technicalDebt", { description: "100 - health." }),
    staleFlags: t.exposeInt("staleFlags", { description: "Active flags marked stale." }),
    lifecycleSummary: t.field({
      type: LifecycleRef,
      description: "Flags per lifecycle stage.",
      resolve: (s) => s.lifecycle,
    }),
  }),
});

const StatsRef = builder.objectRef<Insights["stats"]>("ProjectStats").implement({
  description: "A project's activity in the last 30 days (current window) and the 30 before (past window).",
  fields: (t) => ({
    avgTimeToProdCurrentWindow: t.exposeFloat("avgTimeToProdCurrentWindow", {
      description: "Mean days to production of flags created in the current window (0 when none).",
    }),
    createdCurrentWindow: t.exposeInt("createdCurrentWindow", {
      description: "Flags created, current window.",
    }),
    createdPastWindow: t.exposeInt("createdPastWindow", { description: "Flags created, past window." }),
    archivedCurrentWindow: t.exposeInt("archivedCurrentWindow", {
      description: "Flags archived, current window.",
    }),
    archivedPastWindow: t.exposeInt("archivedPastWindow", { description: "Flags archived, past window." }),
    projectActivityCurrentWindow: t.exposeInt("projectActivityCurrentWindow", {
      description: "Events recorded, current window.",
    }),
    projectActivityPastWindow: t.exposeInt("projectActivityPastWindow", {
      description: "Events recorded, past window.",
    }),
    projectMembersAddedCurrentWindow: t.exposeInt("projectMembersAddedCurrentWindow", {
      description: "Users who got a role in the project, current window.",
    }),
  }),
});

const RatingRef = builder.objectRef<Rating>("ProjectHealthRating").implement({
  description: "A rating with the flag counts it comes from.",
  fields: (t) => ({
    rating: t.exposeInt("rating", { description: "0-100." }),
    activeCount: t.exposeInt("activeCount", {
      description: "Active flags neither stale nor potentially stale.",
    }),
    potentiallyStaleCount: t.exposeInt("potentiallyStaleCount", { description: "Potentially stale flags." }),
    staleCount: t.exposeInt("staleCount", { description: "Stale flags." }),
  }),
});

const TypeCountRef = builder
  .objectRef<Insights["featureTypeCounts"][number]>("ProjectFeatureTypeCount")
  .implement({
    description: "How many active flags of one type a project has.",
    fields: (t) => ({
      type: t.exposeString("type", { description: "Flag type." }),
      count: t.exposeInt("count", { description: "Active flags of that type." }),
    }),
  });

const MembersRef = builder.objectRef<Insights["members"]>("ProjectMembersChange").implement({
  description: "A project's members and their change over the last 30 days.",
  fields: (t) => ({
    currentMembers: t.exposeInt("currentMembers", { description: "Users holding a role now." }),
    change: t.exposeInt("change", {
      description: "Users who got a role in the last 30 days (removals are not kept, so never negative).",
    }),
  }),
});

const InsightsRef = builder.objectRef<Insights>("ProjectInsights").implement({
  description: "A project's insights page.",
  fields: (t) => ({
    stats: t.field({ type: StatsRef, description: "30-day windows.", resolve: (i) => i.stats }),
    leadTime: t.field({ type: DoraRef, description: "DORA lead time.", resolve: (i) => i.leadTime }),
    featureTypeCounts: t.field({
      type: [TypeCountRef],
      description: "Active flags per type, by type.",
      resolve: (i) => i.featureTypeCounts,
    }),
    health: t.field({ type: RatingRef, description: "Health rating.", resolve: (i) => i.health }),
    technicalDebt: t.field({
      type: RatingRef,
      description: "Technical debt (100 - health).",
      resolve: (i) => i.technicalDebt,
    }),
    members: t.field({ type: MembersRef, description: "Members.", resolve: (i) => i.members }),
  }),
});

builder.queryFields((t) => ({
  projectFlagCreators: t.field({
    type: [FlagCreatorRef],
    description: "Users who created the project's active flags, by name; NOT_FOUND for an unknown project.",
    authScopes: { authenticated: true },
    args: { projectId: t.arg.string({ required: true, description: "Project id." }) },
    resolve: (_root, args, ctx) => flagCreators(ctx.db, args.projectId),
  }),
  projectDora: t.field({
    type: DoraRef,
    description: "The project's DORA lead time, from the event log; NOT_FOUND for an unknown project.",
    authScopes: { authenticated: true },
    args: { projectId: t.arg.string({ required: true, description: "Project id." }) },
    resolve: (_root, args, ctx) => doraMetrics(ctx.db, args.projectId),
  }),
  projectStatus: t.field({
    type: StatusRef,
    description: "The project's status page; NOT_FOUND for an unknown project.",
    authScopes: { authenticated: true },
    args: { projectId: t.arg.string({ required: true, description: "Project id." }) },
    resolve: (_root, args, ctx) => projectStatus(ctx.db, args.projectId),
  }),
  projectInsights: t.field({
    type: InsightsRef,
    description: "The project's insights page; NOT_FOUND for an unknown project.",
    authScopes: { authenticated: true },
    args: { projectId: t.arg.string({ required: true, description: "Project id." }) },
    resolve: (_root, args, ctx) => projectInsights(ctx.db, args.projectId),
  }),
}));

export const OnboardingStatusRef = builder
  .objectRef<{ status: string; feature: string | null }>("ProjectOnboardingStatus")
  .implement({
    description: "How far a project is in onboarding.",
    fields: (t) => ({
      status: t.exposeString("status", {
        description: "`onboarding-started`, `first-flag-created`, `sdk-connected` or `onboarded`.",
      }),
      feature: t.exposeString("feature", {
        nullable: true,
        description: "With `first-flag-created`: the project's first flag.",
      }),
    }),
  });

/** Active flags, as the `features` relation of Project selects them (so both share one read). */
const ACTIVE_FLAGS = { where: { archivedAt: null }, orderBy: { name: "asc" } } as const;

builder.prismaObjectFields("Project", (t) => ({
  technicalDebt: t.int({
    description: "100 - health: the share (0-100) of active flags that are stale or potentially stale.",
    select: { health: true },
    resolve: (project) => 100 - project.health,
  }),
  featureTypeCounts: t.field({
    type: [TypeCountRef],
    description:
      "How many active flags of each type the project has, by type name (types with none left out).",
    select: { features: { ...ACTIVE_FLAGS, select: { type: true } } },
    resolve: (project) => {
      const counts = new Map<string, number>();
      for (const { type } of project.features) counts.set(type, (counts.get(type) ?? 0) + 1);
      return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([type, count]) => ({ type, count }));
    },
  }),
  onboardingStatus: t.field({
    type: OnboardingStatusRef,
    description:
      "Where the project stands in onboarding, from its active flags (Unleash's project overview): `onboarded` once an SDK has seen one, `first-flag-created` (with the oldest flag) while none has been seen, `onboarding-started` without flags.",
    select: { features: { ...ACTIVE_FLAGS, select: { name: true, createdAt: true, lastSeenAt: true } } },
    resolve: ({ features }) => {
      if (features.some((f) => f.lastSeenAt !== null)) return { status: "onboarded", feature: null };
      const first = [...features].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0];
      return first
        ? { status: "first-flag-created", feature: first.name }
        : { status: "onboarding-started", feature: null };
    },
  }),
}));
