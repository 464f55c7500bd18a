import { z } from "zod";
import { NotFoundError, ValidationError } from "../../src/shared/errors.ts";
import { graphql } from "../graphql.ts";
import { defineRoutes, typedRoute } from "../route.ts";
import { EnvironmentFields, environmentSchema } from "./catalog-shared.ts";

const createBody = z.object({
  name: z.string(),
  type: z.string(),
  enabled: z.boolean().optional(),
  sortOrder: z.number().int().optional(),
});
const updateBody = z.object({ type: z.string().optional(), sortOrder: z.number().int().optional() });

/** Unleash's environment on/off: available to projects or not (204, no body). */
const toggle = (enabled: boolean) =>
  typedRoute({
    method: "POST",
    path: `/api/admin/environments/:name/${enabled ? "on" : "off"}`,
    tag: "Environments",
    summary: enabled
      ? "Make an environment available to projects"
      : "Make an environment unavailable to projects",
    description: "204. Event: environment-updated when the state changes.",
    document: graphql(`mutation SetEnvironmentEnabled($name: String!, $enabled: Boolean!) {
      setEnvironmentEnabled(name: $name, enabled: $enabled) { name } }`),
    variables: { name: "path.name", enabled },
    status: 204,
    errors: [403, 404],
  });

export const environmentRoutes = defineRoutes([
  // Before PUT /environments/:name, which the same path would match.
  typedRoute({
    method: "PUT",
    path: "/api/admin/environments/sort-order",
    tag: "Environments",
    summary: "Reorder environments",
    description:
      "Body: `{<environment name>: sortOrder}`. Environments not named keep theirs; an unknown name is 404 and nothing changes. 200, no body.",
    document: graphql(`mutation SetEnvironmentSortOrder($order: [EnvironmentSortOrderInput!]!) {
      setEnvironmentSortOrder(order: $order) { name } }`),
    variables: {
      // Unleash's body is a map of names to sort orders; GraphQL takes a list of pairs.
      order: ({ body }) => {
        if (!body || typeof body !== "object" || Array.isArray(body))
          throw new ValidationError("The body must be an object of sort orders.");
        return Object.entries(body).map(([name, sortOrder]) => ({ name, sortOrder }));
      },
    },
    emptyBody: true,
    schemas: { body: z.record(z.string(), z.number().int()) },
    errors: [400, 403, 404],
  }),
  toggle(true),
  toggle(false),
  typedRoute({
    method: "GET",
    path: "/api/admin/environments",
    tag: "Environments",
    summary: "List environments",
    description: "Every environment, by sortOrder then name.",
    document: graphql(`query Environments { environments { ...EnvironmentFields } }`, [EnvironmentFields]),
    respond: (data) => ({ version: 1, environments: data.environments }),
    schemas: { response: z.object({ version: z.literal(1), environments: z.array(environmentSchema) }) },
    errors: [],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/environments/project/:projectId",
    tag: "Environments",
    summary: "The environments enabled for a project",
    description: "`{version: 1, environments}`, by sortOrder then name; 404 for an unknown project.",
    document: graphql(
      `query ProjectEnvironments($id: String!) { project(id: $id) { environments { ...EnvironmentFields } } }`,
      [EnvironmentFields],
    ),
    variables: { id: "path.projectId" },
    respond: ({ project }, req) => {
      if (!project) throw new NotFoundError(`Could not find project with id "${req.params.projectId}"`);
      return { version: 1, environments: project.environments };
    },
    schemas: { response: z.object({ version: z.literal(1), environments: z.array(environmentSchema) }) },
    errors: [404],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/environments/:name",
    tag: "Environments",
    summary: "Get one environment",
    document: graphql(
      `query Environment($name: String!) { environment(name: $name) { ...EnvironmentFields } }`,
      [EnvironmentFields],
    ),
    variables: { name: "path.name" },
    schemas: { response: environmentSchema },
    errors: [404],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/environments",
    tag: "Environments",
    summary: "Create an environment",
    description: "201 with the environment; 409 when the name is taken; 400 over the `environments` limit.",
    document: graphql(
      `mutation CreateEnvironment($input: CreateEnvironmentInput!) {
        createEnvironment(input: $input) { ...EnvironmentFields } }`,
      [EnvironmentFields],
    ),
    variables: { input: { bodyFields: ["name", "type", "enabled", "sortOrder"] } },
    status: 201,
    schemas: { body: createBody, response: environmentSchema },
    errors: [400, 403, 409],
  }),
  typedRoute({
    method: "PUT",
    path: "/api/admin/environments/update/:name",
    tag: "Environments",
    summary: "Update an environment's type or sortOrder",
    document: graphql(
      `mutation UpdateEnvironment($name: String!, $input: UpdateEnvironmentInput!) {
        updateEnvironment(name: $name, input: $input) { ...EnvironmentFields } }`,
      [EnvironmentFields],
    ),
    variables: { name: "path.name", input: { bodyFields: ["type", "sortOrder"] } },
    schemas: { body: updateBody, response: environmentSchema },
  }),
]);
