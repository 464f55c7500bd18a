import { z } from "zod";
import { objectBody } from "../body-fields.ts";
import { graphql, type ResultOf } from "../graphql.ts";
import { defineRoutes, typedRoute } from "../route.ts";
import {
  constraintSchema,
  strategyBodySchema,
  strategyInput,
  strategyVariantSchema,
} from "./strategy-shapes.ts";

/** Unleash's project paths for project API tokens and the environments' default strategy. */

const ProjectTokenFields = graphql(`
  fragment ProjectTokenFields on ApiToken { tokenName type environment projects expiresAt createdAt seenAt }
`);

/** Unleash also reports `project`: the one project, or `[]` for several. */
const withProject = (t: ResultOf<typeof ProjectTokenFields>) => ({
  ...t,
  project: t.projects.length === 1 ? t.projects[0] : "[]",
});

const projectTokenSchema = z.object({
  tokenName: z.string(),
  type: z.enum(["client", "frontend"]),
  environment: z.string(),
  project: z.string(),
  projects: z.array(z.string()),
  expiresAt: z.string().datetime().nullable(),
  createdAt: z.string().datetime(),
  seenAt: z.string().datetime().nullable(),
});

export const projectAdminRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/projects/:projectId/api-tokens",
    tag: "Projects",
    summary: "The project's client and frontend tokens (without secrets)",
    document: graphql(
      `query ProjectApiTokens($project: String!) { projectApiTokens(project: $project) { ...ProjectTokenFields } }`,
      [ProjectTokenFields],
    ),
    variables: { project: "path.projectId" },
    respond: (data) => ({ tokens: data.projectApiTokens.map(withProject) }),
    schemas: { response: z.object({ tokens: z.array(projectTokenSchema) }) },
    errors: [403, 404],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/projects/:projectId/api-tokens",
    tag: "Projects",
    summary: "Create a client or frontend token for the project; the secret is in this response only",
    status: 201,
    document: graphql(
      `mutation CreateProjectApiToken($project: String!, $input: ProjectApiTokenInput!) {
        createProjectApiToken(project: $project, input: $input) { secret token { ...ProjectTokenFields } } }`,
      [ProjectTokenFields],
    ),
    variables: {
      project: "path.projectId",
      // Unleash's older scripts name the token `username`.
      input: (req) => {
        const body = objectBody(req);
        return {
          tokenName: body.tokenName ?? body.username,
          type: body.type,
          environment: body.environment,
          expiresAt: body.expiresAt,
        };
      },
    },
    respond: ({ createProjectApiToken: created }) => ({
      ...withProject(created.token),
      secret: created.secret,
    }),
    schemas: {
      body: z.object({
        tokenName: z.string(),
        type: z.string().regex(/^(client|backend|frontend)$/i),
        environment: z.string().optional(),
        expiresAt: z.string().datetime().optional(),
      }),
      response: projectTokenSchema.extend({ secret: z.string() }),
    },
    errors: [400, 403, 404],
  }),
  typedRoute({
    method: "DELETE",
    path: "/api/admin/projects/:projectId/api-tokens/:token",
    tag: "Projects",
    summary: "Revoke a project token given by its secret",
    description:
      "200 with no body, also when no token of the project has that secret (as Unleash). A token that serves other projects too: 400.",
    document: graphql(`mutation DeleteProjectApiToken($project: String!, $secret: String!) {
      deleteProjectApiToken(project: $project, secret: $secret) }`),
    variables: { project: "path.projectId", secret: "path.token" },
    emptyBody: true,
    errors: [400, 403, 404],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/projects/:projectId/environments/:environment/default-strategy",
    tag: "Projects",
    summary: "Set the strategy a flag gets when enabled in this environment (`*`: every environment)",
    description:
      "Body: a strategy (`name`, `parameters`, `constraints`, `variants`, `segments`, `title`). 200 with the stored strategy.",
    document:
      graphql(`mutation SetDefaultStrategy($project: String!, $environment: String!, $strategy: StrategyInput!) {
      setProjectDefaultStrategy(project: $project, environment: $environment, strategy: $strategy) {
        name title disabled sortOrder parameters constraints variants segments } }`),
    variables: {
      project: "path.projectId",
      environment: "path.environment",
      strategy: ({ body }) => strategyInput(body),
    },
    schemas: {
      body: strategyBodySchema,
      response: z.object({
        name: z.string(),
        title: z.string().nullable(),
        disabled: z.boolean(),
        sortOrder: z.number(),
        parameters: z.record(z.string(), z.string()),
        constraints: z.array(constraintSchema),
        variants: z.array(strategyVariantSchema),
        segments: z.array(z.number().int()),
      }),
    },
    errors: [400, 403, 404],
  }),
]);
