import { z } from "zod";
import { objectBody } from "../body-fields.ts";
import { graphql, type ResultOf } from "../graphql.ts";
import { resultSchema } from "../result-schema.ts";
import { defineRoutes, typedRoute } from "../route.ts";

const ApiTokenFields = graphql(`
  fragment ApiTokenFields on ApiToken {
    id: databaseId tokenName type environment projects displayPrefix expiresAt createdAt seenAt
  }
`);
const PatFields = graphql(`
  fragment PatFields on PersonalAccessToken { id: databaseId description expiresAt createdAt seenAt }
`);

const apiTokenSchema = z.object({
  id: z.number().int(),
  tokenName: z.string(),
  type: z.enum(["client", "frontend", "admin"]),
  environment: z.string(),
  project: z.string(),
  projects: z.array(z.string()),
  displayPrefix: z.string(),
  expiresAt: z.string().datetime().nullable(),
  createdAt: z.string().datetime(),
  seenAt: z.string().datetime().nullable(),
});
const patSchema = resultSchema(PatFields);

/** Unleash also reports `project`: the one project, or `*` / `[]` for several. */
const withProject = (t: ResultOf<typeof ApiTokenFields>) => ({
  ...t,
  project: t.projects.length === 1 ? t.projects[0] : "[]",
});

export const tokenRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/api-tokens",
    tag: "API tokens",
    summary: "List API tokens (without secrets)",
    document: graphql(`query ApiTokens { apiTokens { ...ApiTokenFields } }`, [ApiTokenFields]),
    respond: (data) => ({ tokens: data.apiTokens.map(withProject) }),
    schemas: { response: z.object({ tokens: z.array(apiTokenSchema) }) },
    errors: [403],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/api-tokens",
    tag: "API tokens",
    summary: "Create an API token; the secret is in this response only",
    status: 201,
    document: graphql(
      `mutation CreateApiToken($input: CreateApiTokenInput!) {
        createApiToken(input: $input) { secret token { ...ApiTokenFields } } }`,
      [ApiTokenFields],
    ),
    variables: {
      // Unleash's older scripts name the token `username` and give one `project`.
      input: (req) => {
        const body = objectBody(req);
        const projects = body.projects ?? (typeof body.project === "string" ? [body.project] : undefined);
        return {
          tokenName: body.tokenName ?? body.username,
          type: body.type,
          environment: body.environment,
          projects,
          expiresAt: body.expiresAt,
        };
      },
    },
    respond: ({ createApiToken: created }) => ({ ...withProject(created.token), secret: created.secret }),
    schemas: {
      body: z.object({
        tokenName: z.string(),
        type: z.enum(["client", "backend", "frontend", "admin"]),
        environment: z.string().optional(),
        projects: z.array(z.string()).optional(),
        project: z.string().optional(),
        expiresAt: z.string().datetime().optional(),
      }),
      response: apiTokenSchema.extend({ secret: z.string() }),
    },
    errors: [400, 403],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/api-tokens/:name",
    tag: "API tokens",
    summary: "The API tokens with this name (without secrets)",
    description: "Token names are not unique: always a list, empty when no token has the name (Unleash).",
    document: graphql(
      `query ApiTokensByName($name: String!) { apiTokensByName(name: $name) { ...ApiTokenFields } }`,
      [ApiTokenFields],
    ),
    variables: { name: "path.name" },
    respond: (data) => ({ tokens: data.apiTokensByName.map(withProject) }),
    schemas: { response: z.object({ tokens: z.array(apiTokenSchema) }) },
    errors: [403],
  }),
  typedRoute({
    method: "PUT",
    path: "/api/admin/api-tokens/:token",
    tag: "API tokens",
    summary: "Set when an API token expires",
    description:
      "`token` is the token's secret. 200 without a body, also when no token has that secret (nothing changes then), as Unleash. Event api-token-updated.",
    document: graphql(`mutation UpdateApiTokenExpiry($secret: String!, $expiresAt: DateTime!) {
      updateApiTokenExpiry(secret: $secret, expiresAt: $expiresAt) { id: databaseId } }`),
    variables: { secret: "path.token", expiresAt: (req) => objectBody(req).expiresAt },
    schemas: { body: z.object({ expiresAt: z.string().datetime({ offset: true }) }) },
    emptyBody: true,
    errors: [400, 403, 415],
  }),
  typedRoute({
    method: "DELETE",
    path: "/api/admin/api-tokens/:id",
    tag: "API tokens",
    summary: "Revoke an API token",
    document: graphql(`mutation DeleteApiToken($id: Int!) { deleteApiToken(id: $id) }`),
    variables: { id: "path.id:int" },
    emptyBody: true,
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/user/tokens",
    tag: "Personal access tokens",
    summary: "List the calling user's personal access tokens (without secrets)",
    document: graphql(`query Pats { personalAccessTokens { ...PatFields } }`, [PatFields]),
    respond: (data) => ({ pats: data.personalAccessTokens }),
    schemas: { response: z.object({ pats: z.array(patSchema) }) },
    errors: [],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/user/tokens",
    tag: "Personal access tokens",
    summary: "Create a personal access token for the calling user; the secret is in this response only",
    status: 201,
    document: graphql(
      `mutation CreatePat($input: CreatePersonalAccessTokenInput!) {
        createPersonalAccessToken(input: $input) { secret token { ...PatFields } } }`,
      [PatFields],
    ),
    variables: {
      input: (req) => {
        const body = objectBody(req);
        return { description: body.description, expiresAt: body.expiresAt };
      },
    },
    respond: ({ createPersonalAccessToken: created }) => ({ ...created.token, secret: created.secret }),
    schemas: {
      body: z.object({ description: z.string(), expiresAt: z.string().datetime() }),
      response: patSchema.extend({ secret: z.string() }),
    },
    errors: [400, 403],
  }),
  typedRoute({
    method: "DELETE",
    path: "/api/admin/user/tokens/:id",
    tag: "Personal access tokens",
    summary: "Delete one of the calling user's personal access tokens",
    document: graphql(`mutation DeletePat($id: Int!) { deletePersonalAccessToken(id: $id) }`),
    variables: { id: "path.id:int" },
    emptyBody: true,
    errors: [403, 404],
  }),
]);
