import { z } from "zod";
import { ValidationError } from "../../src/shared/errors.ts";
import { FEATURE_ENVIRONMENT_FIELDS, STRATEGY_FIELDS } from "../fragments.ts";
import { defineRoutes, type RestRequest } from "../route.ts";
import {
  environmentVariantSchema,
  patchesSchema,
  strategyBodySchema,
  strategyInput,
  strategySchema,
  strategyUpdateBodySchema,
  targetVariables,
} from "./strategy-shapes.ts";

const STRATEGIES_PATH =
  "/api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies";
const TARGET_VARS = "$project: String!, $feature: String!, $environment: String!";
const TARGET_ARGS = "project: $project, feature: $feature, environment: $environment";

const READ_ENVIRONMENT = `query FeatureEnvironment($project: String!, $feature: String!, $environment: String!) {
  projectFeature(project: $project, name: $feature, includeArchived: false) {
    environment(name: $environment) { ${FEATURE_ENVIRONMENT_FIELDS} } } }`;
type FeatureEnvironment = { strategies: unknown[]; variants: unknown[] };
const environmentOf = (data: Record<string, unknown>) =>
  (data.projectFeature as { environment: FeatureEnvironment }).environment;

const readVariables = (req: RestRequest) => ({
  project: req.params.projectId,
  feature: req.params.featureName,
  environment: req.params.environment,
});

export const strategyRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/admin/projects/:projectId/features/:featureName/environments/:environment",
    tag: "Features",
    summary: "A flag in one environment (spec 2.7)",
    document: READ_ENVIRONMENT,
    variables: readVariables,
    respond: environmentOf,
    schemas: {
      response: z.object({ name: z.string(), environment: z.string(), enabled: z.boolean() }).passthrough(),
    },
  },
  {
    method: "GET",
    path: STRATEGIES_PATH,
    tag: "Features",
    summary: "A flag's strategies in one environment, in order",
    document: READ_ENVIRONMENT,
    variables: readVariables,
    respond: (data) => environmentOf(data).strategies,
    schemas: { response: z.array(strategySchema) },
  },
  {
    method: "GET",
    path: "/api/admin/projects/:projectId/features/:featureName/environments/:environment/variants",
    tag: "Features",
    summary: "A flag's variants in one environment",
    description: "`{version: 1, variants}`, as the PUT on the same path answers.",
    document: READ_ENVIRONMENT,
    variables: readVariables,
    respond: (data) => ({ version: 1, variants: environmentOf(data).variants }),
    schemas: { response: z.object({ version: z.literal(1), variants: z.array(environmentVariantSchema) }) },
  },
  {
    method: "GET",
    path: `${STRATEGIES_PATH}/:strategyId`,
    tag: "Features",
    summary: "One strategy of a flag in an environment",
    document: `query FeatureStrategy($project: String!, $feature: String!, $environment: String!, $id: String!) {
      projectFeature(project: $project, name: $feature, includeArchived: false) {
        environment(name: $environment) { strategy(id: $id) { ${STRATEGY_FIELDS} } } } }`,
    variables: (req) => ({ ...readVariables(req), id: req.params.strategyId }),
    respond: (data) => (environmentOf(data) as unknown as { strategy: unknown }).strategy,
    schemas: { response: strategySchema },
  },
  {
    method: "POST",
    path: STRATEGIES_PATH,
    tag: "Features",
    summary: "Add a strategy to a flag in an environment",
    document: `mutation AddFeatureStrategy(${TARGET_VARS}, $input: StrategyInput!) {
      addFeatureStrategy(${TARGET_ARGS}, input: $input) { ${STRATEGY_FIELDS} }
    }`,
    variables: (req) => ({ ...targetVariables(req), input: strategyInput(req.body) }),
    schemas: { body: strategyBodySchema, response: strategySchema },
  },
  {
    method: "POST",
    path: `${STRATEGIES_PATH}/set-sort-order`,
    tag: "Features",
    summary: "Reorder a flag's strategies in an environment",
    description: "Body: `[{id, sortOrder}]`. Answers 200 without a body, as Unleash.",
    document: `mutation SetFeatureStrategySortOrder(${TARGET_VARS}, $order: [StrategySortOrderInput!]!) {
      setFeatureStrategySortOrder(${TARGET_ARGS}, order: $order) { name }
    }`,
    bodyPaths: { order: "" },
    variables: (req) => {
      if (!Array.isArray(req.body))
        throw new ValidationError("The body must be an array of {id, sortOrder}.");
      return {
        ...targetVariables(req),
        order: req.body.map((item) => {
          const { id, sortOrder } = (item ?? {}) as Record<string, unknown>;
          return { id, sortOrder };
        }),
      };
    },
    emptyBody: true,
    schemas: {
      body: z.array(z.strictObject({ id: z.string(), sortOrder: z.number().int() })),
    },
  },
  {
    method: "PUT",
    path: `${STRATEGIES_PATH}/:strategyId`,
    tag: "Features",
    summary: "Update a strategy",
    description:
      "Fields left out keep their value. Turns the environment off when no enabled strategy remains.",
    document: `mutation UpdateFeatureStrategy(${TARGET_VARS}, $id: String!, $input: StrategyUpdateInput!) {
      updateFeatureStrategy(${TARGET_ARGS}, id: $id, input: $input) { ${STRATEGY_FIELDS} }
    }`,
    variables: (req) => ({
      ...targetVariables(req),
      id: req.params.strategyId,
      input: strategyInput(req.body),
    }),
    schemas: { body: strategyUpdateBodySchema, response: strategySchema },
  },
  {
    method: "PATCH",
    path: `${STRATEGIES_PATH}/:strategyId`,
    tag: "Features",
    summary: "Patch a strategy (JSON Patch, RFC 6902)",
    description:
      "Paths are those of the strategy as this API shows it (/parameters/rollout, /constraints/0, /disabled, ...). Events as the PUT.",
    document: `mutation PatchFeatureStrategy(${TARGET_VARS}, $id: String!, $operations: [JsonPatchOperationInput!]!) {
      patchFeatureStrategy(${TARGET_ARGS}, id: $id, operations: $operations) { ${STRATEGY_FIELDS} }
    }`,
    bodyPaths: { operations: "" },
    variables: (req) => ({ ...targetVariables(req), id: req.params.strategyId, operations: req.body ?? [] }),
    schemas: { body: patchesSchema, response: strategySchema },
  },
  {
    method: "DELETE",
    path: `${STRATEGIES_PATH}/:strategyId`,
    tag: "Features",
    summary: "Delete a strategy",
    description:
      "Turns the environment off when no enabled strategy remains. Answers 200 without a body, as Unleash.",
    document: `mutation DeleteFeatureStrategy(${TARGET_VARS}, $id: String!) {
      deleteFeatureStrategy(${TARGET_ARGS}, id: $id) { name }
    }`,
    variables: (req) => ({ ...targetVariables(req), id: req.params.strategyId }),
    emptyBody: true,
  },
]);
