import { z } from "zod";
import { graphql, type ResultOf } from "../graphql.ts";
import { defineRoutes, typedRoute } from "../route.ts";
import { single } from "../search-params.ts";
import { withoutNull } from "../shape.ts";
import { overviewFeatureSchema } from "./projects.ts";

/** Unleash's project pages beyond the overview: creators, status, health, insights, DORA, applications. */

const leadTimeSchema = z.object({
  projectAverage: z.number().optional().describe("Mean days to production; absent when no flag got there."),
  features: z.array(z.object({ name: z.string(), timeToProduction: z.number() })),
});
const DoraFields = graphql(
  `fragment DoraFields on ProjectDoraMetrics { projectAverage features { name timeToProduction } }`,
);
const RatingFields = graphql(`
  fragment RatingFields on ProjectHealthRating { rating activeCount potentiallyStaleCount staleCount }
`);
const ratingSchema = z.object({
  rating: z.number().int().min(0).max(100),
  activeCount: z.number().int(),
  potentiallyStaleCount: z.number().int(),
  staleCount: z.number().int(),
});
const stageSchema = z.object({ averageDays: z.number().nullable(), currentFlags: z.number().int() });

/** GraphQL null -> absent, as Unleash leaves `projectAverage` out when there is none. */
const dora = (d: ResultOf<typeof DoraFields>) => withoutNull(d, "projectAverage");

const healthFeatureSchema = overviewFeatureSchema.omit({ lastSeenAt: true });

export const projectInsightRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/projects/:projectId/flag-creators",
    tag: "Projects",
    summary: "Get a list of all flag creators for a project",
    description: "Users who created the project's active flags, by name.",
    document: graphql(
      `query ProjectFlagCreators($projectId: String!) { projectFlagCreators(projectId: $projectId) { id name } }`,
    ),
    variables: { projectId: "path.projectId" },
    errors: [403, 404],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/projects/:projectId/status",
    tag: "Projects",
    summary: "Get project status",
    description:
      "Events per day over the last year, resource counts (API tokens scoped to the project, members, segments), health, technical debt, stale flags and flags per lifecycle stage; a stage's `averageDays` is the mean time flags spent in it before moving on (null while none did).",
    document: graphql(`query ProjectStatus($projectId: String!) { projectStatus(projectId: $projectId) {
      activityCountByDate { date count }
      resources { apiTokens members segments }
      health technicalDebt staleFlags
      lifecycleSummary {
        initial { averageDays currentFlags } preLive { averageDays currentFlags }
        live { averageDays currentFlags } completed { averageDays currentFlags }
        archived { currentFlags last30Days }
      }
    } }`),
    variables: { projectId: "path.projectId" },
    respond: ({ projectStatus: s }) => {
      return {
        activityCountByDate: s.activityCountByDate,
        resources: s.resources,
        health: { current: s.health },
        technicalDebt: { current: s.technicalDebt },
        lifecycleSummary: s.lifecycleSummary,
        staleFlags: { total: s.staleFlags },
      };
    },
    schemas: {
      response: z.object({
        activityCountByDate: z.array(z.object({ date: z.string(), count: z.number().int().min(0) })),
        resources: z.object({
          apiTokens: z.number().int().min(0),
          members: z.number().int().min(0),
          segments: z.number().int().min(0),
        }),
        health: z.object({ current: z.number().int().min(0) }),
        technicalDebt: z.object({ current: z.number().int().min(0).max(100) }),
        lifecycleSummary: z.object({
          initial: stageSchema,
          preLive: stageSchema,
          live: stageSchema,
          completed: stageSchema,
          archived: z.object({ currentFlags: z.number().int(), last30Days: z.number().int() }),
        }),
        staleFlags: z.object({ total: z.number().int().min(0) }),
      }),
    },
    errors: [403, 404],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/projects/:projectId/health-report",
    tag: "Projects",
    summary: "Get a health report for a project",
    description:
      "The project, its environments and active flags, with health (as Unleash: 100 minus the share of stale and potentially stale flags), technical debt and the counts they come from.",
    document: graphql(
      `query ProjectHealthReport($projectId: String!) {
      projectOverview(id: $projectId) {
        name description defaultStickiness mode featureLimit members: memberCount createdAt updatedAt favorite
        environments { name }
        features {
          name type description project stale impressionData createdAt archivedAt favorite
          environments { name enabled type sortOrder variantCount lastSeenAt hasStrategies hasEnabledStrategies }
          tags { type value }
        }
      }
      projectInsights(projectId: $projectId) { technicalDebt { ...RatingFields } }
    }`,
      [RatingFields],
    ),
    variables: { projectId: "path.projectId" },
    respond: (data) => {
      const { projectOverview: project, projectInsights } = data;
      const debt = projectInsights.technicalDebt;
      return {
        version: 1,
        ...project,
        health: 100 - debt.rating,
        technicalDebt: debt.rating,
        environments: project.environments.map((e) => ({ environment: e.name })),
        potentiallyStaleCount: debt.potentiallyStaleCount,
        activeCount: debt.activeCount,
        staleCount: debt.staleCount,
      };
    },
    schemas: {
      response: z.object({
        version: z.literal(1),
        name: z.string(),
        description: z.string().nullable(),
        defaultStickiness: z.string(),
        mode: z.enum(["open", "protected", "private"]),
        featureLimit: z.number().int().nullable(),
        members: z.number().int().min(0),
        health: z.number().int(),
        technicalDebt: z.number().min(0).max(100),
        environments: z.array(z.object({ environment: z.string() })),
        features: z.array(healthFeatureSchema),
        createdAt: z.string().datetime(),
        updatedAt: z.string().datetime(),
        favorite: z.boolean(),
        potentiallyStaleCount: z.number().int(),
        activeCount: z.number().int(),
        staleCount: z.number().int(),
      }),
    },
    errors: [403, 404],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/projects/:projectId/insights",
    tag: "Projects",
    summary: "Get an overview of a project's insights",
    description:
      "30-day window statistics, DORA lead time, flags per type, health and technical debt, and members; `members.change` counts users added in the last 30 days (Vexil keeps no history of removals).",
    document: graphql(
      `query ProjectInsights($projectId: String!) { projectInsights(projectId: $projectId) {
      stats { avgTimeToProdCurrentWindow createdCurrentWindow createdPastWindow archivedCurrentWindow archivedPastWindow
        projectActivityCurrentWindow projectActivityPastWindow projectMembersAddedCurrentWindow }
      leadTime { ...DoraFields }
      featureTypeCounts { type count }
      health { ...RatingFields }
      technicalDebt { ...RatingFields }
      members { currentMembers change }
    } }`,
      [DoraFields, RatingFields],
    ),
    variables: { projectId: "path.projectId" },
    respond: ({ projectInsights: i }) => ({ ...i, leadTime: dora(i.leadTime) }),
    schemas: {
      response: z.object({
        stats: z.object({
          avgTimeToProdCurrentWindow: z.number(),
          createdCurrentWindow: z.number(),
          createdPastWindow: z.number(),
          archivedCurrentWindow: z.number(),
          archivedPastWindow: z.number(),
          projectActivityCurrentWindow: z.number(),
          projectActivityPastWindow: z.number(),
          projectMembersAddedCurrentWindow: z.number(),
        }),
        leadTime: leadTimeSchema,
        featureTypeCounts: z.array(z.object({ type: z.string(), count: z.number() })),
        health: ratingSchema,
        technicalDebt: ratingSchema,
        members: z.object({ currentMembers: z.number(), change: z.number() }),
      }),
    },
    errors: [403, 404],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/projects/:projectId/dora",
    tag: "Projects",
    summary: "Get an overview project dora metrics",
    description:
      "Lead time per active flag: whole days from its creation to its first `feature-environment-enabled` event in an environment of type `production`; flags never enabled there are left out. `projectAverage` is their mean.",
    document: graphql(
      `query ProjectDora($projectId: String!) { projectDora(projectId: $projectId) { ...DoraFields } }`,
      [DoraFields],
    ),
    variables: { projectId: "path.projectId" },
    respond: (data) => dora(data.projectDora),
    schemas: { response: leadTimeSchema },
    errors: [403, 404],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/projects/:projectId/applications",
    tag: "Projects",
    summary: "Get a list of all applications for a project",
    description:
      "Applications that reported metrics for the project's flags, by name (`sortOrder=desc` reverses): the environments they did so in, their instances there and those instances' SDKs.",
    document:
      graphql(`query ProjectApplications($projectId: String!, $query: String, $offset: Int, $first: Int, $descending: Boolean) {
      projectApplications(projectId: $projectId, query: $query, offset: $offset, first: $first, descending: $descending) {
        total applications { name environments instances sdks { name versions } } } }`),
    variables: {
      projectId: "path.projectId",
      query: "query.query",
      offset: "query.offset:int",
      first: "query.limit:int",
      descending: ({ query }) => single(query, "sortOrder") === "desc",
    },
    schemas: {
      query: z.object({
        query: z.string().optional().describe("Part of the application name."),
        offset: z.string().optional().describe("Applications to skip (default 0)."),
        limit: z.string().optional().describe("Page size (default 50, at most 1000)."),
        sortBy: z.string().optional().describe("Only `appName` (the default)."),
        sortOrder: z.enum(["asc", "desc"]).optional().describe("Name order (default asc)."),
      }),
    },
    errors: [400, 403, 404],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/projects/:projectId/sdks/outdated",
    tag: "Projects",
    summary: "Get outdated project SDKs",
    description:
      "SDK versions older than Unleash's recommended minimum, run by applications that reported metrics for the project's flags.",
    document: graphql(
      `query ProjectOutdatedSdks($projectId: String!) { outdatedSdks(projectId: $projectId) { sdkVersion applications } }`,
    ),
    variables: { projectId: "path.projectId" },
    respond: (data) => ({ sdks: data.outdatedSdks }),
    schemas: {
      response: z.object({
        sdks: z.array(z.object({ sdkVersion: z.string(), applications: z.array(z.string()) })),
      }),
    },
    errors: [404],
  }),
]);
