import { z } from "zod";
import { NotFoundError } from "../../src/shared/errors.ts";
import { defineRoutes } from "../route.ts";
import { bodyFields, ENVIRONMENT_FIELDS, environmentSchema } from "./catalog-shared.ts";

const createBody = z.object({
  name: z.string(),
  type: z.string(),
  enabled: z.boolean().optional(),
  sortOrder: z.number().int().optional(),
});
const updateBody = z.object({ type: z.string().optional(), sortOrder: z.number().int().optional() });

export const environmentRoutes = defineRoutes([
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
