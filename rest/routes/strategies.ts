import { z } from "zod";
import { STRATEGY_FIELDS } from "../fragments.ts";
import { defineRoutes } from "../route.ts";
import { strategyBodySchema, strategyInput, strategySchema, targetVariables } from "./strategy-shapes.ts";

const STRATEGIES_PATH =
  "/api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies";
const TARGET_VARS = "$project: String!, $feature: String!, $environment: String!";
const TARGET_ARGS = "project: $project, feature: $feature, environment: $environment";

export const strategyRoutes = defineRoutes([
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
    variables: (req) => {
      if (!Array.isArray(req.body)) throw new Error("The body must be an array of {id, sortOrder}.");
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
      body: z.array(z.object({ id: z.string(), sortOrder: z.number().int() })),
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
    schemas: { body: strategyBodySchema, response: strategySchema },
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
