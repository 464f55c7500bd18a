import { z } from "zod";
import { ValidationError } from "../../src/shared/errors.ts";
import { bodyRecord } from "../body-fields.ts";
import { FEATURE_FIELDS } from "../fragments.ts";
import { defineRoutes, type RestRequest } from "../route.ts";
import { flagTagSchema, tagBodySchema } from "../schemas.ts";
import { constraintBodySchema, featureSchema, pick, pickList } from "./strategy-shapes.ts";

const TAG_KEYS = ["type", "value"];

/** Unleash's bulk toggle: `{features}` on or off in one environment, all or nothing. */
const bulkToggle = (enabled: boolean) => ({
  method: "POST" as const,
  path: `/api/admin/projects/:projectId/bulk_features/environments/:environment/${enabled ? "on" : "off"}`,
  tag: "Features",
  summary: `Turn several flags ${enabled ? "on" : "off"} in an environment`,
  description: `200, no body. All or nothing: an unknown or archived flag fails the whole call and changes nothing. Each flag as the single ${enabled ? "on" : "off"} does it, with its own feature-environment-${enabled ? "enabled" : "disabled"} event when its state flips.`,
  document: `mutation BulkToggle($project: String!, $environment: String!, $features: [String!]!, $enabled: Boolean!) {
    setFeaturesEnabled(project: $project, environment: $environment, features: $features, enabled: $enabled) { name } }`,
  variables: (req: RestRequest) => ({
    project: req.params.projectId,
    environment: req.params.environment,
    features: bodyRecord(req.body).features,
    enabled,
  }),
  emptyBody: true,
  schemas: { body: z.object({ features: z.array(z.string()) }) },
});

export const featureOperationRoutes = defineRoutes([
  bulkToggle(true),
  bulkToggle(false),
  {
    method: "POST",
    path: "/api/admin/features/validate",
    tag: "Features",
    summary: "Check a name for a new flag",
    description:
      "200, no body, when the name is URL-friendly and unused; 400 when malformed; 409 when taken (archived flags too).",
    document: `query ValidateFeatureName($name: String!) { validateFeatureName(name: $name) }`,
    variables: (req) => ({ name: bodyRecord(req.body).name }),
    emptyBody: true,
    schemas: { body: z.object({ name: z.string(), projectId: z.string().nullish() }) },
    errors: [400, 409],
  },
  {
    method: "PUT",
    path: "/api/admin/features/:featureName/tags",
    tag: "Tags",
    summary: "Add and remove tags of a flag",
    description:
      "Adds `addedTags`, then removes `removedTags`, in one transaction. Answers the flag's tags afterwards, `{version: 1, tags}`.",
    document: `mutation UpdateFeatureTags($feature: String!, $addedTags: [TagInput!]!, $removedTags: [TagInput!]!) {
      updateFeatureTags(feature: $feature, addedTags: $addedTags, removedTags: $removedTags) { type value color } }`,
    variables: (req) => ({
      feature: req.params.featureName,
      addedTags: pickList(bodyRecord(req.body).addedTags, TAG_KEYS),
      removedTags: pickList(bodyRecord(req.body).removedTags, TAG_KEYS),
    }),
    respond: (data) => ({ version: 1, tags: data.updateFeatureTags }),
    schemas: {
      body: z.strictObject({ addedTags: z.array(tagBodySchema), removedTags: z.array(tagBodySchema) }),
      response: z.object({ version: z.literal(1), tags: z.array(flagTagSchema) }),
    },
  },
  {
    method: "POST",
    path: "/api/admin/projects/:projectId/features/:featureName/clone",
    tag: "Features",
    summary: "Copy a flag under a new name",
    description:
      "Copies type, description, impression data and, per environment, variants, strategies (groupId becomes the new name unless `replaceGroupId` is false) and parent links. The copy is off everywhere. 201 with the new Feature record (spec 2.8), as the running Unleash 8.2 answers.",
    document: `mutation CloneFeature($project: String!, $name: String!, $newName: String!, $replaceGroupId: Boolean) {
      cloneFeature(project: $project, name: $name, newName: $newName, replaceGroupId: $replaceGroupId) { ${FEATURE_FIELDS} } }`,
    bodyPaths: { newName: "name" },
    variables: (req) => ({
      project: req.params.projectId,
      name: req.params.featureName,
      newName: bodyRecord(req.body).name,
      replaceGroupId: bodyRecord(req.body).replaceGroupId ?? true,
    }),
    status: 201,
    schemas: {
      body: z.object({ name: z.string(), replaceGroupId: z.boolean().optional() }),
      response: featureSchema,
    },
    errors: [400, 403, 404, 409],
  },
  {
    method: "GET",
    path: "/api/admin/lifecycle/count",
    tag: "Features",
    summary: "How many flags are in each lifecycle stage",
    description: "Each flag once, in its current stage (archived flags as `archived`).",
    document: `query LifecycleCounts { featureLifecycleCounts { initial preLive live completed archived } }`,
    schemas: {
      response: z.object({
        initial: z.number(),
        preLive: z.number(),
        live: z.number(),
        completed: z.number(),
        archived: z.number(),
      }),
    },
    errors: [],
  },
  {
    method: "POST",
    path: "/api/admin/constraints/validate",
    tag: "Features",
    summary: "Check a constraint",
    description:
      "204 when the context field exists and the operator's values are well formed (and legal for the field); 400 otherwise.",
    document: `query ValidateConstraint($constraint: ConstraintInput!) { validateConstraint(constraint: $constraint) }`,
    variables: (req) => ({
      constraint: pick(req.body ?? {}, [
        "contextName",
        "operator",
        "caseInsensitive",
        "inverted",
        "values",
        "value",
      ]),
    }),
    status: 204,
    schemas: { body: constraintBodySchema },
    errors: [400],
  },
  {
    method: "PUT",
    path: "/api/admin/feature-types/:id/lifetime",
    tag: "Feature Types",
    summary: "Set how long flags of a type live",
    description:
      "`lifetimeDays` 0 or null: flags of the type never become potentially stale. Answers the type.",
    document: `mutation FeatureTypeLifetime($id: String!, $lifetimeDays: Int) {
      updateFeatureTypeLifetime(id: $id, lifetimeDays: $lifetimeDays) { id name description lifetimeDays } }`,
    variables: (req) => {
      if (!Object.hasOwn(bodyRecord(req.body), "lifetimeDays"))
        throw new ValidationError('"lifetimeDays" is required (null or 0: never).');
      return { id: req.params.id, lifetimeDays: bodyRecord(req.body).lifetimeDays };
    },
    schemas: {
      body: z.object({ lifetimeDays: z.number().int().min(0).nullable() }),
      response: z.object({
        id: z.string(),
        name: z.string(),
        description: z.string().nullable(),
        lifetimeDays: z.number().int().nullable(),
      }),
    },
  },
]);
