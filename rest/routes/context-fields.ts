import { z } from "zod";
import { bodyFields, bodyRecord } from "../body-fields.ts";
import { graphql, type ResultOf } from "../graphql.ts";
import { defineRoutes, type RestRequest, type Route, typedRoute } from "../route.ts";
import { strategyUsageSchema } from "../schemas.ts";

const ContextFieldFields = graphql(`
  fragment ContextFieldFields on ContextField {
    name description stickiness sortOrder createdAt legalValues { value description } project
  }
`);
const KEYS = ["description", "stickiness", "sortOrder", "legalValues"] as const;

const legalValue = z.object({ value: z.string(), description: z.string().nullable().optional() });
/** Unleash's legalValueSchema refuses other fields (400). */
const legalValueBody = z.strictObject(legalValue.shape);
const contextFieldSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  stickiness: z.boolean(),
  sortOrder: z.number().int(),
  createdAt: z.string().datetime(),
  legalValues: z.array(legalValue),
  project: z.string().optional().describe("The project of a project-scoped field; absent for a root field."),
});
const updateBody = z.object({
  description: z.string().nullable().optional(),
  stickiness: z.boolean().optional(),
  sortOrder: z.number().int().optional(),
  legalValues: z.array(legalValueBody).optional(),
  project: z.string().optional().describe("Ignored: a field stays in the project it was created in."),
});
const createBody = updateBody.extend({
  name: z.string(),
  project: z.string().optional().describe("The project of a project-scoped field (root routes only)."),
});
const include = z.object({
  include: z
    .string()
    .optional()
    .describe(
      "`project` on the root list adds every project's fields; `root` on a project's list adds the root fields.",
    ),
});

/** Unleash's shape: `project` only on a project-scoped field. */
const shaped = ({ project, ...rest }: ResultOf<typeof ContextFieldFields>) =>
  project ? { ...rest, project } : rest;

/**
 * The context routes at `/api/admin/context` (root fields; any field by name) and at
 * `/api/admin/projects/:projectId/context` (that project's fields only; see docs/decisions.md
 * D-23).
 */
function contextFieldRoutes(base: string, scoped: boolean): Route[] {
  /** The project of a scoped route's path; null on the root routes. */
  const project = ({ params }: RestRequest) => (scoped ? (params.projectId ?? null) : null);
  const where = scoped ? "of a project" : "";
  return [
    typedRoute({
      method: "GET",
      path: base,
      tag: "Context",
      summary: scoped ? "List a project's context fields" : "List context fields",
      description: scoped
        ? "The project's fields (with `include=root` the root fields too), by sortOrder then name; empty for an unknown project."
        : "The root fields (with `include=project` every project's too), by sortOrder then name (Unleash's shape).",
      document: graphql(
        `query ContextFields($project: String, $includeRoot: Boolean, $includeProjects: Boolean) {
          contextFields(project: $project, includeRoot: $includeRoot, includeProjects: $includeProjects) {
            ...ContextFieldFields } }`,
        [ContextFieldFields],
      ),
      variables: {
        project,
        includeRoot: ({ query }) => query.get("include") === "root",
        includeProjects: ({ query }) => query.get("include") === "project",
      },
      respond: (data) => data.contextFields.map(shaped),
      schemas: { query: include, response: z.array(contextFieldSchema) },
      errors: [],
    }),
    typedRoute({
      method: "GET",
      path: `${base}/:contextField`,
      tag: "Context",
      summary: `Get one context field ${where}`.trim(),
      description: scoped ? "404 unless the field belongs to the project." : undefined,
      document: graphql(
        `query ContextField($name: String!, $project: String) {
          contextField(name: $name, project: $project) { ...ContextFieldFields } }`,
        [ContextFieldFields],
      ),
      variables: { name: "path.contextField", project },
      respond: (data) => shaped(data.contextField),
      schemas: { response: contextFieldSchema },
      errors: [404],
    }),
    typedRoute({
      method: "POST",
      path: base,
      tag: "Context",
      summary: scoped ? "Create a context field in a project" : "Create a context field",
      description: scoped
        ? "201 with the field, which belongs to the project; 404 for an unknown project; 409 when the name is taken by any field, root or project."
        : "201 with the field (a project-scoped one when `project` is given); 409 when the name is taken.",
      document: graphql(
        `mutation CreateContextField($input: CreateContextFieldInput!) {
          createContextField(input: $input) { ...ContextFieldFields } }`,
        [ContextFieldFields],
      ),
      variables: {
        // A scoped field belongs to the path's project, whatever the body says.
        input: scoped
          ? ({ body, params }) => ({ ...bodyFields(body, ["name", ...KEYS]), project: params.projectId })
          : { bodyFields: ["name", ...KEYS, "project"] },
      },
      respond: (data) => shaped(data.createContextField),
      status: 201,
      schemas: { body: createBody, response: contextFieldSchema },
      errors: [400, 403, ...(scoped ? [404] : []), 409],
    }),
    typedRoute({
      method: "PUT",
      path: `${base}/:contextField`,
      tag: "Context",
      summary: `Update a context field ${where}`.trim(),
      description:
        "Absent fields stay as they are; `legalValues` replaces the list. 200 without a body (Unleash).",
      document:
        graphql(`mutation UpdateContextField($name: String!, $input: UpdateContextFieldInput!, $project: String) {
        updateContextField(name: $name, input: $input, project: $project) { name } }`),
      variables: { name: "path.contextField", input: { bodyFields: KEYS }, project },
      schemas: { body: updateBody },
      emptyBody: true,
    }),
    typedRoute({
      method: "DELETE",
      path: `${base}/:contextField`,
      tag: "Context",
      summary: `Delete a context field ${where}`.trim(),
      description: "200 without a body (Unleash). Constraints that use it are left as they are.",
      document: graphql(`mutation DeleteContextField($name: String!, $project: String) {
        deleteContextField(name: $name, project: $project) { name } }`),
      variables: { name: "path.contextField", project },
      emptyBody: true,
    }),
    typedRoute({
      method: "POST",
      path: `${base}/validate`,
      tag: "Context",
      summary: `Check a name for a new context field ${where}`.trim(),
      description:
        "200, no body, when URL-friendly and free (names are unique across root and project fields); 400 malformed; 409 taken.",
      document: graphql(`query ValidateContextFieldName($name: String!, $project: String) {
        validateContextFieldName(name: $name, project: $project) }`),
      variables: { name: "body.name", project },
      emptyBody: true,
      schemas: { body: z.strictObject({ name: z.string() }) },
      errors: [400, ...(scoped ? [404] : []), 409],
    }),
    typedRoute({
      method: "POST",
      path: `${base}/:contextField/legal-values`,
      tag: "Context",
      summary: `Add or update one legal value ${where}`.trim(),
      description: "200, no body. A value the field has gets the new description.",
      document:
        graphql(`mutation SetLegalValue($name: String!, $value: String!, $description: String, $project: String) {
        setContextFieldLegalValue(name: $name, value: $value, description: $description, project: $project) {
          name } }`),
      variables: {
        name: "path.contextField",
        value: "body.value",
        description: ({ body }) => bodyRecord(body).description ?? null,
        project,
      },
      emptyBody: true,
      schemas: { body: z.strictObject({ value: z.string(), description: z.string().optional() }) },
    }),
    typedRoute({
      method: "DELETE",
      path: `${base}/:contextField/legal-values/:legalValue`,
      tag: "Context",
      summary: `Remove one legal value ${where}`.trim(),
      description: "200, no body. Constraints that use the value are left as they are.",
      document: graphql(`mutation RemoveLegalValue($name: String!, $value: String!, $project: String) {
        removeContextFieldLegalValue(name: $name, value: $value, project: $project) { name } }`),
      variables: { name: "path.contextField", value: "path.legalValue", project },
      emptyBody: true,
      errors: [403, 404],
    }),
  ];
}

export const contextRoutes = defineRoutes([
  ...contextFieldRoutes("/api/admin/context", false),
  ...contextFieldRoutes("/api/admin/projects/:projectId/context", true),
  ...[
    { path: "/api/admin/context/:contextField/strategies", tag: "Strategies", project: false },
    {
      path: "/api/admin/projects/:projectId/context/:contextField/strategies",
      tag: "Strategies",
      project: true,
    },
  ].map(({ path, tag, project }) =>
    typedRoute({
      method: "GET",
      path,
      tag,
      summary: project
        ? "Get strategies in a project that use a context field"
        : "Get strategies that use a context field",
      description:
        "Strategies with a constraint on the field (archived flags' too), by flag, environment and position; empty for an unknown field.",
      document: graphql(`query ContextFieldStrategies($contextField: String!, $projectId: String) {
        contextFieldStrategies(contextField: $contextField, projectId: $projectId) {
          id: databaseId featureName projectId: project environment strategyName: name } }`),
      variables: {
        contextField: "path.contextField",
        projectId: ({ params }) => params.projectId ?? null,
      },
      respond: (data) => ({ strategies: data.contextFieldStrategies }),
      schemas: {
        response: strategyUsageSchema,
      },
      errors: [],
    }),
  ),
]);
