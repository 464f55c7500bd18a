import { z } from "zod";
import { defineRoutes } from "../route.ts";
import { bodyFields } from "./catalog-shared.ts";

const CONTEXT_FIELD_FIELDS =
  "name description stickiness sortOrder createdAt legalValues { value description }";
const KEYS = ["description", "stickiness", "sortOrder", "legalValues"] as const;

const legalValue = z.object({ value: z.string(), description: z.string().nullable().optional() });
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
  legalValues: z.array(legalValue).optional(),
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
]);
