import { z } from "zod";
import { bodyRecord } from "../body-fields.ts";
import { FeatureFields } from "../fragments.ts";
import { graphql } from "../graphql.ts";
import { firstFieldSchema } from "../result-schema.ts";
import { defineRoutes, typedRoute } from "../route.ts";
import { tagBodySchema } from "../schemas.ts";
import { featureSchema } from "./strategy-shapes.ts";

const FEATURE_PATH = "/api/admin/projects/:projectId/features/:featureName";
const FEATURE_TYPES = graphql(`query FeatureTypes { featureTypes { id name description lifetimeDays } }`);
/** The flag of the path, as GraphQL arguments. */
const FLAG = { project: "path.projectId", name: "path.featureName" } as const;
const metadataBody = z.object({
  description: z.string().nullable().optional(),
  type: z.string().optional(),
  impressionData: z.boolean().optional(),
  stale: z.boolean().optional(),
});

export const featureRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/feature-types",
    tag: "Features",
    summary: "The flag types and their expected lifetimes",
    document: FEATURE_TYPES,
    respond: (data) => ({ version: 1, types: data.featureTypes }),
    schemas: { response: z.object({ version: z.literal(1), types: firstFieldSchema(FEATURE_TYPES) }) },
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/projects/:projectId/features",
    tag: "Features",
    summary: "Create a flag",
    description:
      "201 with the Feature record (as the running Unleash 8.2); 409 when the name is taken anywhere.",
    document: graphql(
      `mutation CreateFeature($project: String!, $input: CreateFeatureInput!) {
        createFeature(project: $project, input: $input) { ...FeatureFields } }`,
      [FeatureFields],
    ),
    variables: {
      project: "path.projectId",
      input: { bodyFields: ["name", "type", "description", "impressionData", "tags"] },
    },
    status: 201,
    schemas: {
      body: z.object({
        name: z.string(),
        type: z.string().optional(),
        description: z.string().nullable().optional(),
        impressionData: z.boolean().optional(),
        tags: z.array(tagBodySchema).optional(),
      }),
      response: featureSchema,
    },
    errors: [400, 403, 404, 409],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/projects/:projectId/features",
    tag: "Features",
    summary: "List the active flags of a project",
    document: graphql(
      `query ProjectFeatures($project: String!) { projectFeatures(project: $project) { ...FeatureFields } }`,
      [FeatureFields],
    ),
    variables: { project: "path.projectId" },
    respond: (data) => ({ version: 1, features: data.projectFeatures }),
    schemas: { response: z.object({ version: z.literal(1), features: z.array(featureSchema) }) },
    errors: [403, 404],
  }),
  typedRoute({
    method: "GET",
    path: FEATURE_PATH,
    tag: "Features",
    summary: "Get a flag (spec 2.8 record)",
    description: "An archived flag is 404, as Unleash answers.",
    document: graphql(
      `query ProjectFeature($project: String!, $name: String!) {
        projectFeature(project: $project, name: $name, includeArchived: false) { ...FeatureFields } }`,
      [FeatureFields],
    ),
    variables: FLAG,
    schemas: { response: featureSchema },
    errors: [403, 404],
  }),
  typedRoute({
    method: "GET",
    path: `${FEATURE_PATH}/lifecycle`,
    tag: "Features",
    summary: "A flag's lifecycle stages",
    description: "Every stage the flag entered, oldest first (`stage`, `status`, `enteredStageAt`).",
    document: graphql(`query FeatureLifecycle($project: String!, $name: String!) {
      projectFeature(project: $project, name: $name) { lifecycleStages { stage status enteredStageAt } } }`),
    variables: FLAG,
    // Unleash leaves `status` out where there is none.
    respond: (data) =>
      data.projectFeature.lifecycleStages.map(({ status, ...stage }) =>
        status === null ? stage : { ...stage, status },
      ),
    schemas: {
      response: z.array(
        z.object({
          stage: z.enum(["initial", "pre-live", "live", "completed", "archived"]),
          status: z.string().optional(),
          enteredStageAt: z.string().datetime(),
        }),
      ),
    },
    errors: [403, 404],
  }),
  typedRoute({
    method: "PUT",
    path: FEATURE_PATH,
    tag: "Features",
    summary: "Update a flag's metadata",
    description: "Fields left out are kept; other fields of the body (name, project, ...) are ignored.",
    document: graphql(
      `mutation UpdateFeature($project: String!, $name: String!, $input: UpdateFeatureInput!) {
        updateFeature(project: $project, name: $name, input: $input) { ...FeatureFields } }`,
      [FeatureFields],
    ),
    variables: { ...FLAG, input: { bodyFields: ["description", "type", "impressionData", "stale"] } },
    schemas: { body: metadataBody, response: featureSchema },
  }),
  typedRoute({
    method: "PATCH",
    path: FEATURE_PATH,
    tag: "Features",
    summary: "Patch a flag's metadata (JSON Patch, RFC 6902)",
    description: "Paths: /description, /type, /impressionData, /stale.",
    document: graphql(
      `mutation PatchFeature($project: String!, $name: String!, $operations: [JsonPatchOperationInput!]!) {
        patchFeature(project: $project, name: $name, operations: $operations) { ...FeatureFields } }`,
      [FeatureFields],
    ),
    bodyPaths: { operations: "" },
    variables: { ...FLAG, operations: ({ body }) => body ?? [] },
    schemas: {
      body: z.array(
        z.object({
          op: z.string(),
          path: z.string(),
          from: z.string().optional(),
          value: z.unknown().optional(),
        }),
      ),
      response: featureSchema,
    },
  }),
  typedRoute({
    method: "POST",
    path: `${FEATURE_PATH}/lifecycle/complete`,
    tag: "Features",
    summary: "Mark a flag completed (kept or discarded)",
    description: "200, no body. Body `{status: kept|discarded, statusValue?}`.",
    document:
      graphql(`mutation CompleteFeature($project: String!, $name: String!, $status: CompletedStatus!, $statusValue: String) {
      completeFeature(project: $project, name: $name, status: $status, statusValue: $statusValue) { name } }`),
    variables: {
      ...FLAG,
      status: "body.status",
      statusValue: ({ body }) => bodyRecord(body).statusValue ?? null,
    },
    emptyBody: true,
    schemas: {
      body: z.strictObject({ status: z.enum(["kept", "discarded"]), statusValue: z.string().optional() }),
    },
  }),
  typedRoute({
    method: "POST",
    path: `${FEATURE_PATH}/lifecycle/uncomplete`,
    tag: "Features",
    summary: "Take a flag out of the completed stage",
    document: graphql(`mutation UncompleteFeature($project: String!, $name: String!) {
      uncompleteFeature(project: $project, name: $name) { name } }`),
    variables: FLAG,
    emptyBody: true,
  }),
  typedRoute({
    method: "DELETE",
    path: FEATURE_PATH,
    tag: "Features",
    summary: "Archive a flag",
    description: "202. Refused (403) while another flag depends on it.",
    document: graphql(`mutation ArchiveFeature($project: String!, $names: [String!]!) {
      archiveFeatures(project: $project, names: $names) { name } }`),
    variables: { project: "path.projectId", names: ({ params }) => [params.featureName] },
    status: 202,
  }),
]);
