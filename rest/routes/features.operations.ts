import { z } from "zod";
import { ValidationError } from "../../src/shared/errors.ts";
import { bodyRecord } from "../body-fields.ts";
import { FeatureFields } from "../fragments.ts";
import { graphql } from "../graphql.ts";
import { defineRoutes, typedRoute } from "../route.ts";
import { flagTagSchema, tagBodySchema } from "../schemas.ts";
import { CONSTRAINT_KEYS, constraintBodySchema, featureSchema, pick, pickList } from "./strategy-shapes.ts";

const TAG_KEYS = ["type", "value"];

/** Unleash's bulk toggle: `{features}` on or off in one environment, all or nothing. */
const bulkToggle = (enabled: boolean) =>
  typedRoute({
    method: "POST",
    path: `/api/admin/projects/:projectId/bulk_features/environments/:environment/${enabled ? "on" : "off"}`,
    tag: "Features",
    summary: `Turn several flags ${enabled ? "on" : "off"} in an environment`,
    description: `200, no body. All or nothing: an unknown or archived flag fails the whole call and changes nothing. Each flag as the single ${enabled ? "on" : "off"} does it, with its own feature-environment-${enabled ? "enabled" : "disabled"} event when its state flips.`,
    document:
      graphql(`mutation BulkToggle($project: String!, $environment: String!, $features: [String!]!, $enabled: Boolean!) {
      setFeaturesEnabled(project: $project, environment: $environment, features: $features, enabled: $enabled) { name } }`),
    variables: {
      project: "path.projectId",
      environment: "path.environment",
      features: "body.features",
      enabled,
    },
    emptyBody: true,
    schemas: { body: z.object({ features: z.array(z.string()) }) },
  });

export const featureOperationRoutes = defineRoutes([
  bulkToggle(true),
  bulkToggle(false),
  typedRoute({
    method: "POST",
    path: "/api/admin/features/validate",
    tag: "Features",
    summary: "Check a name for a new flag",
    description:
      "200, no body, when the name is URL-friendly and unused; 400 when malformed; 409 when taken (archived flags too).",
    document: graphql(`query ValidateFeatureName($name: String!) { validateFeatureName(name: $name) }`),
    variables: { name: "body.name" },
    emptyBody: true,
    schemas: { body: z.object({ name: z.string(), projectId: z.string().nullish() }) },
    errors: [400, 409],
  }),
  typedRoute({
    method: "PUT",
    path: "/api/admin/features/:featureName/tags",
    tag: "Tags",
    summary: "Add and remove tags of a flag",
    description:
      "Adds `addedTags`, then removes `removedTags`, in one transaction. Answers the flag's tags afterwards, `{version: 1, tags}`.",
    document:
      graphql(`mutation UpdateFeatureTags($feature: String!, $addedTags: [TagInput!]!, $removedTags: [TagInput!]!) {
      updateFeatureTags(feature: $feature, addedTags: $addedTags, removedTags: $removedTags) { type value color } }`),
    variables: {
      feature: "path.featureName",
      // A tag's `color` is accepted and ignored: TagInput has none.
      addedTags: ({ body }) => pickList(bodyRecord(body).addedTags, TAG_KEYS),
      removedTags: ({ body }) => pickList(bodyRecord(body).removedTags, TAG_KEYS),
    },
    respond: (data) => ({ version: 1, tags: data.updateFeatureTags }),
    schemas: {
      body: z.strictObject({ addedTags: z.array(tagBodySchema), removedTags: z.array(tagBodySchema) }),
      response: z.object({ version: z.literal(1), tags: z.array(flagTagSchema) }),
    },
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/projects/:projectId/features/:featureName/clone",
    tag: "Features",
    summary: "Copy a flag under a new name",
    description:
      "Copies type, description, impression data and, per environment, variants, strategies (groupId becomes the new name unless `replaceGroupId` is false) and parent links. The copy is off everywhere. 201 with the new Feature record (spec 2.8), as the running Unleash 8.2 answers.",
    document: graphql(
      `mutation CloneFeature($project: String!, $name: String!, $newName: String!, $replaceGroupId: Boolean) {
        cloneFeature(project: $project, name: $name, newName: $newName, replaceGroupId: $replaceGroupId) {
          ...FeatureFields } }`,
      [FeatureFields],
    ),
    bodyPaths: { newName: "name" },
    variables: {
      project: "path.projectId",
      name: "path.featureName",
      newName: "body.name",
      // Unleash replaces the group id unless told not to.
      replaceGroupId: ({ body }) => bodyRecord(body).replaceGroupId ?? true,
    },
    status: 201,
    schemas: {
      body: z.object({ name: z.string(), replaceGroupId: z.boolean().optional() }),
      response: featureSchema,
    },
    errors: [400, 403, 404, 409],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/lifecycle/count",
    tag: "Features",
    summary: "How many flags are in each lifecycle stage",
    description: "Each flag once, in its current stage (archived flags as `archived`).",
    document: graphql(
      `query LifecycleCounts { featureLifecycleCounts { initial preLive live completed archived } }`,
    ),
    errors: [],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/constraints/validate",
    tag: "Features",
    summary: "Check a constraint",
    description:
      "204 when the context field exists and the operator's values are well formed (and legal for the field); 400 otherwise.",
    document: graphql(
      `query ValidateConstraint($constraint: ConstraintInput!) { validateConstraint(constraint: $constraint) }`,
    ),
    variables: { constraint: ({ body }) => pick(body ?? {}, CONSTRAINT_KEYS) },
    status: 204,
    schemas: { body: constraintBodySchema },
    errors: [400],
  }),
  typedRoute({
    method: "PUT",
    path: "/api/admin/feature-types/:id/lifetime",
    tag: "Feature Types",
    summary: "Set how long flags of a type live",
    description:
      "`lifetimeDays` 0 or null: flags of the type never become potentially stale. Answers the type.",
    document: graphql(`mutation FeatureTypeLifetime($id: String!, $lifetimeDays: Int) {
      updateFeatureTypeLifetime(id: $id, lifetimeDays: $lifetimeDays) { id name description lifetimeDays } }`),
    variables: {
      id: "path.id",
      // Required, as in Unleash; null (or 0) means the flags never become potentially stale.
      lifetimeDays: ({ body }) => {
        if (!Object.hasOwn(bodyRecord(body), "lifetimeDays"))
          throw new ValidationError('"lifetimeDays" is required (null or 0: never).');
        return bodyRecord(body).lifetimeDays;
      },
    },
    schemas: { body: z.object({ lifetimeDays: z.number().int().min(0).nullable() }) },
  }),
]);
