import { z } from "zod";
import { NotFoundError } from "../../src/shared/errors.ts";
import { objectBody } from "../body-fields.ts";
import { defineRoutes } from "../route.ts";

/** Unleash's strategy types (`/api/admin/strategies`): built-ins and custom definitions. */

const FIELDS =
  "name displayName title description editable deprecated parameters { name type description required }";

const parameterSchema = z.object({
  name: z.string(),
  type: z.string(),
  description: z.string(),
  required: z.boolean(),
});
const definitionSchema = z.object({
  name: z.string(),
  displayName: z.string().nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  editable: z.boolean(),
  deprecated: z.boolean(),
  parameters: z.array(parameterSchema),
});
const parameterBody = z.object({
  name: z.string(),
  type: z.enum(["string", "percentage", "list", "number", "boolean"]),
  description: z.string().optional(),
  required: z.boolean().optional(),
});
const createBody = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  editable: z.boolean().optional().describe("Ignored: custom types are editable."),
  deprecated: z.boolean().optional().describe("Ignored: use /deprecate."),
  parameters: z.array(parameterBody),
});
const updateBody = z.object({
  title: z.string().optional(),
  description: z.string().optional(),
  parameters: z.array(parameterBody),
});

const notFound = (name: string | undefined) =>
  new NotFoundError(`Could not find strategy type with name ${name}`);

export const strategyDefinitionRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/admin/strategies",
    tag: "Strategies",
    summary: "Every strategy type: the built-ins, then custom ones by name",
    document: `query StrategyTypes { strategyDefinitions { ${FIELDS} } }`,
    respond: (data) => ({ version: 1, strategies: data.strategyDefinitions }),
    schemas: { response: z.object({ version: z.literal(1), strategies: z.array(definitionSchema) }) },
    errors: [],
  },
  {
    method: "GET",
    path: "/api/admin/strategies/:name",
    tag: "Strategies",
    summary: "One strategy type",
    document: `query StrategyType($name: String!) { strategyDefinition(name: $name) { ${FIELDS} } }`,
    variables: (req) => ({ name: req.params.name }),
    respond: (data, req) => {
      if (!data.strategyDefinition) throw notFound(req.params.name);
      return data.strategyDefinition;
    },
    schemas: { response: definitionSchema },
    errors: [404],
  },
  {
    method: "POST",
    path: "/api/admin/strategies",
    tag: "Strategies",
    summary: "Create a custom strategy type",
    description:
      "201 with the type; 409 when the name is taken (a built-in's too); 400 for a bad name or parameter.",
    status: 201,
    document: `mutation CreateStrategyType($input: CreateStrategyDefinitionInput!) { createStrategyDefinition(input: $input) { ${FIELDS} } }`,
    variables: (req) => ({ input: objectBody(req) }),
    schemas: { body: createBody, response: definitionSchema },
    errors: [400, 403, 409],
  },
  {
    method: "PUT",
    path: "/api/admin/strategies/:name",
    tag: "Strategies",
    summary: "Change a custom strategy type's description and parameters",
    description: "200 with no body. A built-in cannot be changed (403); unknown name: 404.",
    document: `mutation UpdateStrategyType($name: String!, $input: UpdateStrategyDefinitionInput!) { updateStrategyDefinition(name: $name, input: $input) { name } }`,
    variables: (req) => ({ name: req.params.name, input: objectBody(req) }),
    emptyBody: true,
    schemas: { body: updateBody },
  },
  {
    method: "DELETE",
    path: "/api/admin/strategies/:name",
    tag: "Strategies",
    summary: "Delete a custom strategy type",
    description: "200 with no body. A built-in cannot be deleted (403); unknown name: 404.",
    document: "mutation DeleteStrategyType($name: String!) { deleteStrategyDefinition(name: $name) }",
    variables: (req) => ({ name: req.params.name }),
    emptyBody: true,
    errors: [403, 404],
  },
  {
    method: "POST",
    path: "/api/admin/strategies/:strategyName/deprecate",
    tag: "Strategies",
    summary: "Deprecate a strategy type (still evaluated; hidden from new strategies)",
    document: `mutation DeprecateStrategyType($name: String!) { setStrategyDefinitionDeprecated(name: $name, deprecated: true) { name } }`,
    variables: (req) => ({ name: req.params.strategyName }),
    emptyBody: true,
    errors: [403, 404],
  },
  {
    method: "POST",
    path: "/api/admin/strategies/:strategyName/reactivate",
    tag: "Strategies",
    summary: "Reactivate a deprecated strategy type",
    document: `mutation ReactivateStrategyType($name: String!) { setStrategyDefinitionDeprecated(name: $name, deprecated: false) { name } }`,
    variables: (req) => ({ name: req.params.strategyName }),
    emptyBody: true,
    errors: [403, 404],
  },
]);
