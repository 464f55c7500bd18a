import { z } from "zod";
import { defineRoutes, type Route } from "../route.ts";
import { strategyUsageSchema } from "../schemas.ts";
import { bodyFields } from "./catalog-shared.ts";

const CONTEXT_FIELD_FIELDS =
  "name description stickiness sortOrder createdAt legalValues { value description }";
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
});
const updateBody = z.object({
  description: z.string().nullable().optional(),
  stickiness: z.boolean().optional(),
  sortOrder: z.number().int().optional(),
  legalValues: z.array(legalValueBody).optional(),
});
const createBody = updateBody.extend({ name: z.string() });

export const contextRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/admin/context",
    tag: "Context",
    summary: "List context fields",
    description: "A plain array, by sortOrder then name (Unleash's shape).",
    document: `query ContextFields { contextFields { ${CONTEXT_FIELD_FIELDS} } }`,
    schemas: { response: z.array(contextFieldSchema) },
    errors: [],
  },
  {
    method: "GET",
    path: "/api/admin/context/:contextField",
    tag: "Context",
    summary: "Get one context field",
    document: `query ContextField($name: String!) { contextField(name: $name) { ${CONTEXT_FIELD_FIELDS} } }`,
    variables: ({ params }) => ({ name: params.contextField }),
    respond: (data) => data.contextField,
    schemas: { response: contextFieldSchema },
    errors: [404],
  },
  {
    method: "POST",
    path: "/api/admin/context",
    tag: "Context",
    summary: "Create a context field",
    description: "201 with the field; 409 when the name is taken.",
    document: `mutation CreateContextField($input: CreateContextFieldInput!) {
      createContextField(input: $input) { ${CONTEXT_FIELD_FIELDS} }
    }`,
    variables: ({ body }) => ({ input: bodyFields(body, ["name", ...KEYS]) }),
    status: 201,
    schemas: { body: createBody, response: contextFieldSchema },
    errors: [400, 403, 409],
  },
  {
    method: "PUT",
    path: "/api/admin/context/:contextField",
    tag: "Context",
    summary: "Update a context field",
    description:
      "Absent fields stay as they are; `legalValues` replaces the list. 200 without a body (Unleash).",
    document: `mutation UpdateContextField($name: String!, $input: UpdateContextFieldInput!) {
      updateContextField(name: $name, input: $input) { ${CONTEXT_FIELD_FIELDS} }
    }`,
    variables: ({ params, body }) => ({ name: params.contextField, input: bodyFields(body, KEYS) }),
    schemas: { body: updateBody },
    emptyBody: true,
  },
  {
    method: "DELETE",
    path: "/api/admin/context/:contextField",
    tag: "Context",
    summary: "Delete a context field",
    description: "200 without a body (Unleash).",
    document: `mutation DeleteContextField($name: String!) {
      deleteContextField(name: $name) { ${CONTEXT_FIELD_FIELDS} }
    }`,
    variables: ({ params }) => ({ name: params.contextField }),
    emptyBody: true,
  },
  {
    method: "POST",
    path: "/api/admin/context/validate",
    tag: "Context",
    summary: "Check a name for a new context field",
    description: "200, no body, when URL-friendly and free; 400 malformed; 409 taken.",
    document: `query ValidateContextFieldName($name: String!) { validateContextFieldName(name: $name) }`,
    variables: (req) => ({ name: (req.body as { name?: unknown } | undefined)?.name }),
    emptyBody: true,
    schemas: { body: z.strictObject({ name: z.string() }) },
    errors: [400, 409],
  },
  {
    method: "POST",
    path: "/api/admin/context/:contextField/legal-values",
    tag: "Context",
    summary: "Add or update one legal value",
    description: "200, no body. A value the field has gets the new description.",
    document: `mutation SetLegalValue($name: String!, $value: String!, $description: String) {
      setContextFieldLegalValue(name: $name, value: $value, description: $description) { name } }`,
    variables: (req) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      return { name: req.params.contextField, value: b.value, description: b.description ?? null };
    },
    emptyBody: true,
    schemas: { body: z.strictObject({ value: z.string(), description: z.string().optional() }) },
  },
  {
    method: "DELETE",
    path: "/api/admin/context/:contextField/legal-values/:legalValue",
    tag: "Context",
    summary: "Remove one legal value",
    description: "200, no body. Constraints that use the value are left as they are.",
    document: `mutation RemoveLegalValue($name: String!, $value: String!) {
      removeContextFieldLegalValue(name: $name, value: $value) { name } }`,
    variables: (req) => ({ name: req.params.contextField, value: req.params.legalValue }),
    emptyBody: true,
    errors: [403, 404],
  },
  ...[
    { path: "/api/admin/context/:contextField/strategies", tag: "Strategies", project: false },
    {
      path: "/api/admin/projects/:projectId/context/:contextField/strategies",
      tag: "Strategies",
      project: true,
    },
  ].map(
    ({ path, tag, project }): Route => ({
      method: "GET",
      path,
      tag,
      summary: project
        ? "Get strategies in a project that use a context field"
        : "Get strategies that use a context field",
      description:
        "Strategies with a constraint on the field (archived flags' too), by flag, environment and position; empty for an unknown field.",
      document: `query ContextFieldStrategies($contextField: String!, $projectId: String) {
        contextFieldStrategies(contextField: $contextField, projectId: $projectId) {
          id: databaseId featureName projectId: project environment strategyName: name } }`,
      variables: ({ params }) => ({ contextField: params.contextField, projectId: params.projectId ?? null }),
      respond: (data) => ({ strategies: data.contextFieldStrategies }),
      schemas: {
        response: strategyUsageSchema,
      },
      errors: [],
    }),
  ),
]);
