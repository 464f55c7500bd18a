import { z } from "zod";
import { ValidationError } from "../../src/shared/errors.ts";
import { ENV_VARIANT_FIELDS, FEATURE_FIELDS } from "../fragments.ts";
import { defineRoutes } from "../route.ts";
import {
  environmentVariantBodySchema,
  environmentVariantSchema,
  featureSchema,
  patchesSchema,
  targetVariables,
  variantInput,
} from "./strategy-shapes.ts";

const ENVIRONMENT_PATH = "/api/admin/projects/:projectId/features/:featureName/environments/:environment";
const TARGET_VARS = "$project: String!, $feature: String!, $environment: String!";
const TARGET_ARGS = "project: $project, feature: $feature, environment: $environment";

export const featureEnvironmentRoutes = defineRoutes([
  {
    method: "POST",
    path: `${ENVIRONMENT_PATH}/on`,
    tag: "Features",
    summary: "Enable a flag in an environment (spec 4.1)",
    description:
      "Adds the project's default strategy first when no strategy would apply; with `shouldActivateDisabledStrategies=true` re-enables the disabled strategies instead. Repeating it changes nothing. Answers the Feature record (spec 2.8).",
    document: `mutation EnableFeatureEnvironment(${TARGET_VARS}, $activate: Boolean) {
      enableFeatureEnvironment(${TARGET_ARGS}, shouldActivateDisabledStrategies: $activate) { ${FEATURE_FIELDS} }
    }`,
    variables: (req) => ({
      ...targetVariables(req),
      activate: req.query.get("shouldActivateDisabledStrategies") === "true",
    }),
    schemas: {
      query: z.object({
        shouldActivateDisabledStrategies: z
          .enum(["true", "false"])
          .optional()
          .describe("Re-enable disabled strategies instead of adding the default strategy."),
      }),
      response: featureSchema,
    },
  },
  {
    method: "POST",
    path: `${ENVIRONMENT_PATH}/off`,
    tag: "Features",
    summary: "Disable a flag in an environment",
    description: "Answers the Feature record (spec 2.8). Repeating it changes nothing.",
    document: `mutation DisableFeatureEnvironment(${TARGET_VARS}) {
      disableFeatureEnvironment(${TARGET_ARGS}) { ${FEATURE_FIELDS} }
    }`,
    variables: targetVariables,
    schemas: { response: featureSchema },
  },
  {
    method: "PUT",
    path: `${ENVIRONMENT_PATH}/variants`,
    tag: "Features",
    summary: "Set a flag's variants in an environment",
    description:
      "Replaces all variants; `variable` weights are rebalanced so the total is 1000. Answers `{version, variants}`.",
    document: `mutation SetFeatureEnvironmentVariants(${TARGET_VARS}, $variants: [EnvironmentVariantInput!]!) {
      setFeatureEnvironmentVariants(${TARGET_ARGS}, variants: $variants) { variants { ${ENV_VARIANT_FIELDS} } }
    }`,
    bodyPaths: { variants: "" },
    variables: (req) => {
      if (!Array.isArray(req.body)) throw new ValidationError("The body must be an array of variants.");
      return { ...targetVariables(req), variants: req.body.map((v) => variantInput(v, true)) };
    },
    respond: (data) => ({
      version: 1,
      variants: (data.setFeatureEnvironmentVariants as { variants: unknown[] }).variants,
    }),
    schemas: {
      body: z.array(environmentVariantBodySchema),
      response: z.object({ version: z.literal(1), variants: z.array(environmentVariantSchema) }),
    },
  },
  {
    method: "PATCH",
    path: `${ENVIRONMENT_PATH}/variants`,
    tag: "Features",
    summary: "Patch a flag's variants in an environment (JSON Patch, RFC 6902)",
    description:
      "The patch applies to the variant list (`/0/weight`, `/-` to append...); `variable` weights are rebalanced. Answers `{version, variants}`.",
    document: `mutation PatchFeatureEnvironmentVariants(${TARGET_VARS}, $operations: [JsonPatchOperationInput!]!) {
      patchFeatureEnvironmentVariants(${TARGET_ARGS}, operations: $operations) { variants { ${ENV_VARIANT_FIELDS} } }
    }`,
    bodyPaths: { operations: "" },
    variables: (req) => ({ ...targetVariables(req), operations: req.body ?? [] }),
    respond: (data) => ({
      version: 1,
      variants: (data.patchFeatureEnvironmentVariants as { variants: unknown[] }).variants,
    }),
    schemas: {
      body: patchesSchema,
      response: z.object({ version: z.literal(1), variants: z.array(environmentVariantSchema) }),
    },
  },
  {
    method: "PUT",
    path: "/api/admin/projects/:projectId/features/:featureName/variants-batch",
    tag: "Features",
    summary: "Set the same variants in several environments",
    description:
      "Replaces the variants in each listed environment, all or nothing. Answers `{version, variants}` as stored (weights rebalanced); no environments: nothing changes and `variants` is empty.",
    document: `mutation SetFeatureVariantsInEnvironments($project: String!, $feature: String!, $environments: [String!]!, $variants: [EnvironmentVariantInput!]!) {
      setFeatureVariantsInEnvironments(project: $project, feature: $feature, environments: $environments, variants: $variants) { variants { ${ENV_VARIANT_FIELDS} } }
    }`,
    variables: (req) => {
      const b = (req.body ?? {}) as { variants?: unknown; environments?: unknown };
      return {
        project: req.params.projectId,
        feature: req.params.featureName,
        environments: b.environments ?? [],
        variants: Array.isArray(b.variants)
          ? b.variants.map((v) => variantInput(v, true))
          : (b.variants ?? []),
      };
    },
    respond: (data) => ({
      version: 1,
      variants: (data.setFeatureVariantsInEnvironments as { variants: unknown[] }[])[0]?.variants ?? [],
    }),
    schemas: {
      body: z.object({
        variants: z.array(environmentVariantBodySchema).optional(),
        environments: z.array(z.string()).optional(),
      }),
      response: z.object({ version: z.literal(1), variants: z.array(environmentVariantSchema) }),
    },
  },
]);
