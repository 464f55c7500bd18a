import { z } from "zod";
import { ValidationError } from "../../src/shared/errors.ts";
import { bodyRecord } from "../body-fields.ts";
import { FeatureEnvironmentFields, StrategyFields } from "../fragments.ts";
import { graphql } from "../graphql.ts";
import { defineRoutes, typedRoute } from "../route.ts";
import {
  featureEnvironmentSchema,
  patchesSchema,
  strategyBodySchema,
  strategyInput,
  strategySchema,
  strategyUpdateBodySchema,
  TARGET,
  variantSchema,
} from "./strategy-shapes.ts";

const STRATEGIES_PATH =
  "/api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies";

const READ_ENVIRONMENT = graphql(
  `query FeatureEnvironment($project: String!, $feature: String!, $environment: String!) {
    projectFeature(project: $project, name: $feature, includeArchived: false) {
      environment(name: $environment) { ...FeatureEnvironmentFields } } }`,
  [FeatureEnvironmentFields],
);

export const strategyRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/projects/:projectId/features/:featureName/environments/:environment",
    tag: "Features",
    summary: "A flag in one environment (spec 2.7)",
    document: READ_ENVIRONMENT,
    variables: TARGET,
    respond: (data) => data.projectFeature.environment,
    schemas: { response: featureEnvironmentSchema },
  }),
  typedRoute({
    method: "GET",
    path: STRATEGIES_PATH,
    tag: "Features",
    summary: "A flag's strategies in one environment, in order",
    document: READ_ENVIRONMENT,
    variables: TARGET,
    respond: (data) => data.projectFeature.environment.strategies,
    schemas: { response: z.array(strategySchema) },
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/projects/:projectId/features/:featureName/environments/:environment/variants",
    tag: "Features",
    summary: "A flag's variants in one environment",
    description: "`{version: 1, variants}`, as the PUT on the same path answers.",
    document: READ_ENVIRONMENT,
    variables: TARGET,
    respond: (data) => ({ version: 1, variants: data.projectFeature.environment.variants }),
    schemas: { response: z.object({ version: z.literal(1), variants: z.array(variantSchema) }) },
  }),
  typedRoute({
    method: "GET",
    path: `${STRATEGIES_PATH}/:strategyId`,
    tag: "Features",
    summary: "One strategy of a flag in an environment",
    document: graphql(
      `query FeatureStrategy($project: String!, $feature: String!, $environment: String!, $id: String!) {
        projectFeature(project: $project, name: $feature, includeArchived: false) {
          environment(name: $environment) { strategy(id: $id) { ...StrategyFields } } } }`,
      [StrategyFields],
    ),
    variables: { ...TARGET, id: "path.strategyId" },
    respond: (data) => data.projectFeature.environment.strategy,
    schemas: { response: strategySchema },
  }),
  typedRoute({
    method: "POST",
    path: STRATEGIES_PATH,
    tag: "Features",
    summary: "Add a strategy to a flag in an environment",
    document: graphql(
      `mutation AddFeatureStrategy($project: String!, $feature: String!, $environment: String!, $input: StrategyInput!) {
        addFeatureStrategy(project: $project, feature: $feature, environment: $environment, input: $input) {
          ...StrategyFields } }`,
      [StrategyFields],
    ),
    variables: { ...TARGET, input: ({ body }) => strategyInput(body) },
    schemas: { body: strategyBodySchema, response: strategySchema },
  }),
  typedRoute({
    method: "POST",
    path: `${STRATEGIES_PATH}/set-sort-order`,
    tag: "Features",
    summary: "Reorder a flag's strategies in an environment",
    description: "Body: `[{id, sortOrder}]`. Answers 200 without a body, as Unleash.",
    document: graphql(
      `mutation SetFeatureStrategySortOrder($project: String!, $feature: String!, $environment: String!, $order: [StrategySortOrderInput!]!) {
        setFeatureStrategySortOrder(project: $project, feature: $feature, environment: $environment, order: $order) { name } }`,
    ),
    bodyPaths: { order: "" },
    variables: {
      ...TARGET,
      order: ({ body }) => {
        if (!Array.isArray(body)) throw new ValidationError("The body must be an array of {id, sortOrder}.");
        return body.map((item) => {
          const { id, sortOrder } = bodyRecord(item ?? {});
          return { id, sortOrder };
        });
      },
    },
    emptyBody: true,
    schemas: {
      body: z.array(z.strictObject({ id: z.string(), sortOrder: z.number().int() })),
    },
  }),
  typedRoute({
    method: "PUT",
    path: `${STRATEGIES_PATH}/:strategyId`,
    tag: "Features",
    summary: "Update a strategy",
    description:
      "Fields left out keep their value. Turns the environment off when no enabled strategy remains.",
    document: graphql(
      `mutation UpdateFeatureStrategy($project: String!, $feature: String!, $environment: String!, $id: String!, $input: StrategyUpdateInput!) {
        updateFeatureStrategy(project: $project, feature: $feature, environment: $environment, id: $id, input: $input) {
          ...StrategyFields } }`,
      [StrategyFields],
    ),
    variables: { ...TARGET, id: "path.strategyId", input: ({ body }) => strategyInput(body) },
    schemas: { body: strategyUpdateBodySchema, response: strategySchema },
  }),
  typedRoute({
    method: "PATCH",
    path: `${STRATEGIES_PATH}/:strategyId`,
    tag: "Features",
    summary: "Patch a strategy (JSON Patch, RFC 6902)",
    description:
      "Paths are those of the strategy as this API shows it (/parameters/rollout, /constraints/0, /disabled, ...). Events as the PUT.",
    document: graphql(
      `mutation PatchFeatureStrategy($project: String!, $feature: String!, $environment: String!, $id: String!, $operations: [JsonPatchOperationInput!]!) {
        patchFeatureStrategy(project: $project, feature: $feature, environment: $environment, id: $id, operations: $operations) {
          ...StrategyFields } }`,
      [StrategyFields],
    ),
    bodyPaths: { operations: "" },
    variables: { ...TARGET, id: "path.strategyId", operations: ({ body }) => body ?? [] },
    schemas: { body: patchesSchema, response: strategySchema },
  }),
  typedRoute({
    method: "DELETE",
    path: `${STRATEGIES_PATH}/:strategyId`,
    tag: "Features",
    summary: "Delete a strategy",
    description:
      "Turns the environment off when no enabled strategy remains. Answers 200 without a body, as Unleash.",
    document: graphql(
      `mutation DeleteFeatureStrategy($project: String!, $feature: String!, $environment: String!, $id: String!) {
        deleteFeatureStrategy(project: $project, feature: $feature, environment: $environment, id: $id) { name } }`,
    ),
    variables: { ...TARGET, id: "path.strategyId" },
    emptyBody: true,
  }),
]);
