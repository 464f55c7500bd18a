import { z } from "zod";
import { NotFoundError } from "../../src/shared/errors.ts";
import { graphql } from "../graphql.ts";
import { resultSchema } from "../result-schema.ts";
import { defineRoutes, typedRoute } from "../route.ts";

/** Unleash's strategy types (`/api/admin/strategies`): built-ins and custom definitions. */

const DefinitionFields = graphql(`
  fragment DefinitionFields on StrategyDefinition {
    name displayName title description editable deprecated parameters { name type description required }
  }
`);

const definitionSchema = resultSchema(DefinitionFields);
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
  typedRoute({
    method: "GET",
    path: "/api/admin/strategies",
    tag: "Strategies",
    summary: "Every strategy type: the built-ins, then custom ones by name",
    document: graphql(`query StrategyTypes { strategyDefinitions { ...DefinitionFields } }`, [
      DefinitionFields,
    ]),
    respond: (data) => ({ version: 1, strategies: data.strategyDefinitions }),
    schemas: { response: z.object({ version: z.literal(1), strategies: z.array(definitionSchema) }) },
    errors: [],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/strategies/:name",
    tag: "Strategies",
    summary: "One strategy type",
    document: graphql(
      `query StrategyType($name: String!) { strategyDefinition(name: $name) { ...DefinitionFields } }`,
      [DefinitionFields],
    ),
    variables: { name: "path.name" },
    respond: ({ strategyDefinition }, req) => {
      if (!strategyDefinition) throw notFound(req.params.name);
      return strategyDefinition;
    },
    schemas: { response: definitionSchema },
    errors: [404],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/strategies",
    tag: "Strategies",
    summary: "Create a custom strategy type",
    description:
      "201 with the type; 409 when the name is taken (a built-in's too); 400 for a bad name or parameter.",
    status: 201,
    document: graphql(
      `mutation CreateStrategyType($input: CreateStrategyDefinitionInput!) {
        createStrategyDefinition(input: $input) { ...DefinitionFields } }`,
      [DefinitionFields],
    ),
    variables: { input: "body:object" },
    schemas: { body: createBody, response: definitionSchema },
    errors: [400, 403, 409],
  }),
  typedRoute({
    method: "PUT",
    path: "/api/admin/strategies/:name",
    tag: "Strategies",
    summary: "Change a custom strategy type's description and parameters",
    description: "200 with no body. A built-in cannot be changed (403); unknown name: 404.",
    document: graphql(`mutation UpdateStrategyType($name: String!, $input: UpdateStrategyDefinitionInput!) {
      updateStrategyDefinition(name: $name, input: $input) { name } }`),
    variables: { name: "path.name", input: "body:object" },
    emptyBody: true,
    schemas: { body: updateBody },
  }),
  typedRoute({
    method: "DELETE",
    path: "/api/admin/strategies/:name",
    tag: "Strategies",
    summary: "Delete a custom strategy type",
    description: "200 with no body. A built-in cannot be deleted (403); unknown name: 404.",
    document: graphql(
      "mutation DeleteStrategyType($name: String!) { deleteStrategyDefinition(name: $name) }",
    ),
    variables: { name: "path.name" },
    emptyBody: true,
    errors: [403, 404],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/strategies/:strategyName/deprecate",
    tag: "Strategies",
    summary: "Deprecate a strategy type (still evaluated; hidden from new strategies)",
    document: graphql(`mutation DeprecateStrategyType($name: String!) {
      setStrategyDefinitionDeprecated(name: $name, deprecated: true) { name } }`),
    variables: { name: "path.strategyName" },
    emptyBody: true,
    errors: [403, 404],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/strategies/:strategyName/reactivate",
    tag: "Strategies",
    summary: "Reactivate a deprecated strategy type",
    document: graphql(`mutation ReactivateStrategyType($name: String!) {
      setStrategyDefinitionDeprecated(name: $name, deprecated: false) { name } }`),
    variables: { name: "path.strategyName" },
    emptyBody: true,
    errors: [403, 404],
  }),
]);
