import { z } from "zod";
import { NotFoundError, ValidationError } from "../../src/shared/errors.ts";
import { bodyFields } from "../body-fields.ts";
import { defineRoutes } from "../route.ts";
import { ENVIRONMENT_FIELDS, environmentSchema } from "./catalog-shared.ts";

const createBody = z.object({
  name: z.string(),
  type: z.string(),
  enabled: z.boolean().optional(),
  sortOrder: z.number().int().optional(),
});
const updateBody = z.object({ type: z.string().optional(), sortOrder: z.number().int().optional() });

/** Unleash's environment on/off: available to projects or not (204, no body). */
const toggle = (enabled: boolean) => ({
  method: "POST" as const,
  path: `/api/admin/environments/:name/${enabled ? "on" : "off"}`,
  tag: "Environments",
  summary: enabled
    ? "Make an environment available to projects"
    : "Make an environment unavailable to projects",
  description: "204. Event: environment-updated when the state changes.",
  document: `mutation SetEnvironmentEnabled($name: String!, $enabled: Boolean!) {
    setEnvironmentEnabled(name: $name, enabled: $enabled) { name } }`,
  variables: (req: { params: Record<string, string> }) => ({ name: req.params.name, enabled }),
  status: 204,
  errors: [403, 404],
});

export const environmentRoutes = defineRoutes([
  // Before PUT /environments/:name, which the same path would match.
  {
    method: "PUT",
    path: "/api/admin/environments/sort-order",
    tag: "Environments",
    summary: "Reorder environments",
    description:
      "Body: `{<environment name>: sortOrder}`. Environments not named keep theirs; an unknown name is 404 and nothing changes. 200, no body.",
    document: `mutation SetEnvironmentSortOrder($order: [EnvironmentSortOrderInput!]!) {
      setEnvironmentSortOrder(order: $order) { name } }`,
    variables: (req) => {
      const b = req.body;
      if (!b || typeof b !== "object" || Array.isArray(b))
        throw new ValidationError("The body must be an object of sort orders.");
      return { order: Object.entries(b).map(([name, sortOrder]) => ({ name, sortOrder })) };
    },
    emptyBody: true,
    schemas: { body: z.record(z.string(), z.number().int()) },
    errors: [400, 403, 404],
  },
  toggle(true),
  toggle(false),
  {
    method: "GET",
    path: "/api/admin/environments",
    tag: "Environments",
    summary: "List environments",
    description: "Every environment, by sortOrder then name.",
    document: `query Environments { environments { ${ENVIRONMENT_FIELDS} } }`,
    respond: (data) => ({ version: 1, environments: data.environments }),
    schemas: { response: z.object({ version: z.literal(1), environments: z.array(environmentSchema) }) },
    errors: [],
  },
  {
    method: "GET",
    path: "/api/admin/environments/project/:projectId",
    tag: "Environments",
    summary: "The environments enabled for a project",
    description: "`{version: 1, environments}`, by sortOrder then name; 404 for an unknown project.",
    document: `query ProjectEnvironments($id: String!) {
      project(id: $id) { environments { ${ENVIRONMENT_FIELDS} } } }`,
    variables: ({ params }) => ({ id: params.projectId }),
    respond: (data, req) => {
      const project = data.project as { environments: unknown[] } | null;
      if (!project) throw new NotFoundError(`Could not find project with id "${req.params.projectId}"`);
      return { version: 1, environments: project.environments };
    },
    schemas: { response: z.object({ version: z.literal(1), environments: z.array(environmentSchema) }) },
    errors: [404],
  },
  {
    method: "GET",
    path: "/api/admin/environments/:name",
    tag: "Environments",
    summary: "Get one environment",
    document: `query Environment($name: String!) { environment(name: $name) { ${ENVIRONMENT_FIELDS} } }`,
    variables: ({ params }) => ({ name: params.name }),
    respond: (data) => data.environment,
    schemas: { response: environmentSchema },
    errors: [404],
  },
  {
    method: "POST",
    path: "/api/admin/environments",
    tag: "Environments",
    summary: "Create an environment",
    description: "201 with the environment; 409 when the name is taken; 400 over the `environments` limit.",
    document: `mutation CreateEnvironment($input: CreateEnvironmentInput!) {
      createEnvironment(input: $input) { ${ENVIRONMENT_FIELDS} }
    }`,
    variables: ({ body }) => ({ input: bodyFields(body, ["name", "type", "enabled", "sortOrder"]) }),
    status: 201,
    schemas: { body: createBody, response: environmentSchema },
    errors: [400, 403, 409],
  },
  {
    method: "PUT",
    path: "/api/admin/environments/update/:name",
    tag: "Environments",
    summary: "Update an environment's type or sortOrder",
    document: `mutation UpdateEnvironment($name: String!, $input: UpdateEnvironmentInput!) {
      updateEnvironment(name: $name, input: $input) { ${ENVIRONMENT_FIELDS} }
    }`,
    variables: ({ params, body }) => ({ name: params.name, input: bodyFields(body, ["type", "sortOrder"]) }),
    schemas: { body: updateBody, response: environmentSchema },
  },
]);
