import { z } from "zod";
import { bodyRecord } from "../body-fields.ts";
import { graphql } from "../graphql.ts";
import { resultSchema } from "../result-schema.ts";
import { defineRoutes, typedRoute } from "../route.ts";
import { withoutNull } from "../shape.ts";
import { strategyBodySchema, strategyInput } from "./strategy-shapes.ts";

/** Unleash's `projectSchema` (list item). */
const ProjectFields = graphql(`
  fragment ProjectFields on Project {
    id: databaseId name description health featureCount staleFeatureCount potentiallyStaleFeatureCount
    memberCount createdAt updatedAt archivedAt favorite mode defaultStickiness featureLimit
  }
`);

/** Vexil's projects are all `open` (Unleash's other modes are Enterprise's). */
const projectSchema = resultSchema(ProjectFields, { mode: z.literal("open") });

const createdSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  featureLimit: z.number().int().nullable(),
  mode: z.literal("open"),
  defaultStickiness: z.string(),
  environments: z.array(z.string()),
});

/** A flag in the project overview (and, without `lastSeenAt`, in the health report). */
const OverviewFeatureFields = graphql(`
  fragment OverviewFeatureFields on Feature {
    name type description project stale impressionData createdAt lastSeenAt archivedAt favorite
    environments { name enabled type sortOrder variantCount lastSeenAt hasStrategies hasEnabledStrategies }
    tags { type value }
  }
`);
export const overviewFeatureSchema = resultSchema(OverviewFeatureFields);

const overviewSchema = projectSchema.extend({
  version: z.literal(1),
  technicalDebt: z.number().int(),
  environments: z.array(z.object({ environment: z.string() })),
  featureTypeCounts: z.array(z.object({ type: z.string(), count: z.number().int() })),
  features: z.array(overviewFeatureSchema),
});

/** Unleash names each environment `{environment}` in an overview. */
const environmentNames = (environments: { name: string }[]) =>
  environments.map((e) => ({ environment: e.name }));

const unleashOverviewSchema = z.object({
  version: z.literal(1),
  name: z.string(),
  description: z.string().nullable(),
  defaultStickiness: z.string(),
  mode: z.string(),
  featureLimit: z.number().int().nullable(),
  members: z.number().int(),
  health: z.number().int(),
  technicalDebt: z.number().int(),
  environments: z.array(z.object({ environment: z.string() })),
  featureTypeCounts: z.array(z.object({ type: z.string(), count: z.number().int() })),
  createdAt: z.string().datetime(),
  updatedAt: z.string().datetime(),
  archivedAt: z.string().datetime().nullable(),
  favorite: z.boolean(),
  onboardingStatus: z.union([
    z.object({ status: z.enum(["onboarding-started", "sdk-connected", "onboarded"]) }),
    z.object({ status: z.literal("first-flag-created"), feature: z.string() }),
  ]),
});

export const projectRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/projects",
    tag: "Projects",
    summary: "List active projects",
    document: graphql(`query Projects { projects { ...ProjectFields } }`, [ProjectFields]),
    respond: (data) => ({ version: 1, projects: data.projects }),
    schemas: { response: z.object({ version: z.literal(1), projects: z.array(projectSchema) }) },
    errors: [],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/projects",
    tag: "Projects",
    summary: "Create a project",
    description:
      "201 with the project; `id` is derived from `name` when absent; `environments` defaults to every enabled one. 409 when the id is taken; 400 over the `projects` limit.",
    document: graphql(`mutation CreateProject($input: CreateProjectInput!) {
      createProject(input: $input) { id: databaseId name description featureLimit mode defaultStickiness environments { name } } }`),
    variables: { input: { bodyFields: ["id", "name", "description", "environments"] } },
    respond: ({ createProject: project }) => ({
      ...project,
      environments: project.environments.map((e) => e.name),
    }),
    status: 201,
    schemas: {
      body: z.object({
        id: z.string().optional(),
        name: z.string(),
        description: z.string().nullable().optional(),
        environments: z.array(z.string()).optional(),
      }),
      response: createdSchema,
    },
    errors: [400, 403, 409],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/projects/:projectId",
    tag: "Projects",
    summary: "Project overview",
    description: "The project with its environments, health and a summary of each active flag.",
    document: graphql(
      `query ProjectOverview($id: String!) { projectOverview(id: $id) {
        ...ProjectFields technicalDebt featureTypeCounts { type count }
        environments { name }
        features { ...OverviewFeatureFields } } }`,
      [ProjectFields, OverviewFeatureFields],
    ),
    variables: { id: "path.projectId" },
    respond: ({ projectOverview: project }) => ({
      version: 1,
      ...project,
      environments: environmentNames(project.environments),
    }),
    schemas: { response: overviewSchema },
    errors: [404],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/projects/:projectId/overview",
    tag: "Projects",
    summary: "A project's overview (Unleash's projectOverviewSchema)",
    description:
      "Settings, health, environments, flag counts by type and `onboardingStatus`: `onboarding-started` " +
      "(no flag), `first-flag-created` (no flag seen by an SDK yet), `onboarded`.",
    document: graphql(`query ProjectOverviewSummary($id: String!) { projectOverview(id: $id) {
      name description defaultStickiness mode featureLimit members: memberCount health
      technicalDebt environments { name } featureTypeCounts { type count } createdAt updatedAt archivedAt favorite
      onboardingStatus { status feature } } }`),
    variables: { id: "path.projectId" },
    // Unleash's newer overview: the project's summary without its flags.
    respond: ({ projectOverview: project }) => ({
      version: 1,
      ...project,
      environments: environmentNames(project.environments),
      onboardingStatus: withoutNull(project.onboardingStatus, "feature"),
    }),
    schemas: { response: unleashOverviewSchema },
    errors: [404],
  }),
  typedRoute({
    method: "PUT",
    path: "/api/admin/projects/:projectId",
    tag: "Projects",
    summary: "Update a project's name or description",
    description: "200 without a body (Unleash).",
    document: graphql(
      `mutation UpdateProject($id: String!, $input: UpdateProjectInput!) {
        updateProject(id: $id, input: $input) { ...ProjectFields } }`,
      [ProjectFields],
    ),
    variables: { id: "path.projectId", input: { bodyFields: ["name", "description"] } },
    schemas: {
      body: z.object({ name: z.string().optional(), description: z.string().nullable().optional() }),
    },
    emptyBody: true,
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/projects/archive/:projectId",
    tag: "Projects",
    summary: "Archive a project",
    description: "Refused (403 InvalidOperationError) while the project has active flags.",
    document: graphql(
      `mutation ArchiveProject($id: String!) { archiveProject(id: $id) { ...ProjectFields } }`,
      [ProjectFields],
    ),
    variables: { id: "path.projectId" },
    emptyBody: true,
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/projects/revive/:projectId",
    tag: "Projects",
    summary: "Revive an archived project",
    document: graphql(
      `mutation ReviveProject($id: String!) { reviveProject(id: $id) { ...ProjectFields } }`,
      [ProjectFields],
    ),
    variables: { id: "path.projectId" },
    emptyBody: true,
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/projects/:projectId/environments",
    tag: "Projects",
    summary: "Enable an environment for a project",
    description:
      "Body `{environment, defaultStrategy?, changeRequestsEnabled?}`. The project's flags get a disabled state there. `defaultStrategy` becomes the project's default strategy there (validated as `POST .../environments/{environment}/default-strategy`); `changeRequestsEnabled: true` requires change requests there with 1 approval. All in one transaction: a refused option (400) adds nothing. 409 when already enabled.",
    document:
      graphql(`mutation ($project: String!, $environment: String!, $defaultStrategy: StrategyInput, $changeRequestsEnabled: Boolean) {
      enableProjectEnvironment(project: $project, environment: $environment, defaultStrategy: $defaultStrategy, changeRequestsEnabled: $changeRequestsEnabled) {
        id: databaseId } }`),
    variables: {
      project: "path.projectId",
      environment: "body.environment",
      // A strategy object as the StrategyInput; anything else is GraphQL's to refuse.
      defaultStrategy: ({ body }) => {
        const strategy = bodyRecord(body).defaultStrategy;
        return strategy && typeof strategy === "object" && !Array.isArray(strategy)
          ? strategyInput(strategy)
          : strategy;
      },
      changeRequestsEnabled: "body.changeRequestsEnabled",
    },
    bodyPaths: { defaultStrategy: "defaultStrategy" },
    schemas: {
      body: z.strictObject({
        environment: z.string(),
        changeRequestsEnabled: z
          .boolean()
          .optional()
          .describe(
            "true: change requests are required there (1 approval); false: not required; absent: as they were (off, unless the project kept them from an earlier time the environment was enabled).",
          ),
        defaultStrategy: strategyBodySchema
          .optional()
          .describe("The strategy a flag gets when it is enabled there without strategies."),
      }),
    },
    errors: [400, 403, 404, 409],
    emptyBody: true,
  }),
  typedRoute({
    method: "DELETE",
    path: "/api/admin/projects/:projectId/environments/:environment",
    tag: "Projects",
    summary: "Disable an environment for a project",
    description:
      "Deletes the project's flags' state and strategies there. A project keeps at least one environment.",
    document: graphql(`mutation ($project: String!, $environment: String!) {
      disableProjectEnvironment(project: $project, environment: $environment) { id: databaseId environments { name } } }`),
    variables: { project: "path.projectId", environment: "path.environment" },
    emptyBody: true,
  }),
]);
