import { z } from "zod";
import { ValidationError } from "../../src/shared/errors.ts";
import { bodyRecord } from "../body-fields.ts";
import { EnvironmentVariantFields, FeatureFields } from "../fragments.ts";
import { graphql } from "../graphql.ts";
import { defineRoutes, typedRoute } from "../route.ts";
import {
  environmentVariantBodySchema,
  featureSchema,
  patchesSchema,
  TARGET,
  variantInput,
  variantSchema,
} from "./strategy-shapes.ts";

const ENVIRONMENT_PATH = "/api/admin/projects/:projectId/features/:featureName/environments/:environment";
const variantsAnswer = z.object({ version: z.literal(1), variants: z.array(variantSchema) });

export const featureEnvironmentRoutes = defineRoutes([
  typedRoute({
    method: "POST",
    path: `${ENVIRONMENT_PATH}/on`,
    tag: "Features",
    summary: "Enable a flag in an environment (spec 4.1)",
    description:
      "Adds the project's default strategy first when no strategy would apply; with `shouldActivateDisabledStrategies=true` re-enables the disabled strategies instead. Repeating it changes nothing. Answers the Feature record (spec 2.8).",
    document: graphql(
      `mutation EnableFeatureEnvironment($project: String!, $feature: String!, $environment: String!, $activate: Boolean) {
        enableFeatureEnvironment(project: $project, feature: $feature, environment: $environment, shouldActivateDisabledStrategies: $activate) {
          ...FeatureFields } }`,
      [FeatureFields],
    ),
    variables: {
      ...TARGET,
      activate: ({ query }) => query.get("shouldActivateDisabledStrategies") === "true",
    },
    schemas: {
      query: z.object({
        shouldActivateDisabledStrategies: z
          .enum(["true", "false"])
          .optional()
          .describe("Re-enable disabled strategies instead of adding the default strategy."),
      }),
      response: featureSchema,
    },
  }),
  typedRoute({
    method: "POST",
    path: `${ENVIRONMENT_PATH}/off`,
    tag: "Features",
    summary: "Disable a flag in an environment",
    description: "Answers the Feature record (spec 2.8). Repeating it changes nothing.",
    document: graphql(
      `mutation DisableFeatureEnvironment($project: String!, $feature: String!, $environment: String!) {
        disableFeatureEnvironment(project: $project, feature: $feature, environment: $environment) { ...FeatureFields } }`,
      [FeatureFields],
    ),
    variables: TARGET,
    schemas: { response: featureSchema },
  }),
  typedRoute({
    method: "PUT",
    path: `${ENVIRONMENT_PATH}/variants`,
    tag: "Features",
    summary: "Set a flag's variants in an environment",
    description:
      "Replaces all variants; `variable` weights are rebalanced so the total is 1000. Answers `{version, variants}`.",
    document: graphql(
      `mutation SetFeatureEnvironmentVariants($project: String!, $feature: String!, $environment: String!, $variants: [EnvironmentVariantInput!]!) {
        setFeatureEnvironmentVariants(project: $project, feature: $feature, environment: $environment, variants: $variants) {
          variants { ...EnvironmentVariantFields } } }`,
      [EnvironmentVariantFields],
    ),
    bodyPaths: { variants: "" },
    variables: {
      ...TARGET,
      variants: ({ body }) => {
        if (!Array.isArray(body)) throw new ValidationError("The body must be an array of variants.");
        return body.map((v) => variantInput(v, true));
      },
    },
    respond: (data) => ({ version: 1, variants: data.setFeatureEnvironmentVariants.variants }),
    schemas: { body: z.array(environmentVariantBodySchema), response: variantsAnswer },
  }),
  typedRoute({
    method: "PATCH",
    path: `${ENVIRONMENT_PATH}/variants`,
    tag: "Features",
    summary: "Patch a flag's variants in an environment (JSON Patch, RFC 6902)",
    description:
      "The patch applies to the variant list (`/0/weight`, `/-` to append...); `variable` weights are rebalanced. Answers `{version, variants}`.",
    document: graphql(
      `mutation PatchFeatureEnvironmentVariants($project: String!, $feature: String!, $environment: String!, $operations: [JsonPatchOperationInput!]!) {
        patchFeatureEnvironmentVariants(project: $project, feature: $feature, environment: $environment, operations: $operations) {
          variants { ...EnvironmentVariantFields } } }`,
      [EnvironmentVariantFields],
    ),
    bodyPaths: { operations: "" },
    variables: { ...TARGET, operations: ({ body }) => body ?? [] },
    respond: (data) => ({ version: 1, variants: data.patchFeatureEnvironmentVariants.variants }),
    schemas: { body: patchesSchema, response: variantsAnswer },
  }),
  typedRoute({
    method: "PUT",
    path: "/api/admin/projects/:projectId/features/:featureName/variants-batch",
    tag: "Features",
    summary: "Set the same variants in several environments",
    description:
      "Replaces the variants in each listed environment, all or nothing. Answers `{version, variants}` as stored (weights rebalanced); no environments: nothing changes and `variants` is empty.",
    document: graphql(
      `mutation SetFeatureVariantsInEnvironments($project: String!, $feature: String!, $environments: [String!]!, $variants: [EnvironmentVariantInput!]!) {
        setFeatureVariantsInEnvironments(project: $project, feature: $feature, environments: $environments, variants: $variants) {
          variants { ...EnvironmentVariantFields } } }`,
      [EnvironmentVariantFields],
    ),
    variables: {
      project: "path.projectId",
      feature: "path.featureName",
      environments: ({ body }) => bodyRecord(body).environments ?? [],
      variants: ({ body }) => {
        const variants = bodyRecord(body).variants;
        return Array.isArray(variants) ? variants.map((v) => variantInput(v, true)) : (variants ?? []);
      },
    },
    respond: (data) => ({
      version: 1,
      variants: data.setFeatureVariantsInEnvironments[0]?.variants ?? [],
    }),
    schemas: {
      body: z.object({
        variants: z.array(environmentVariantBodySchema).optional(),
        environments: z.array(z.string()).optional(),
      }),
      response: variantsAnswer,
    },
  }),
]);
