import { z } from "zod";
import { objectBody } from "../body-fields.ts";
import { graphql } from "../graphql.ts";
import { defineRoutes, type RestRequest, typedRoute } from "../route.ts";
import { constraintSchema, environmentVariantSchema, strategyVariantSchema } from "./strategy-shapes.ts";

/** Unleash 8.2's exportResultSchema, as Vexil writes it. */
const exportResultSchema = z
  .object({
    features: z.array(
      z.object({
        name: z.string(),
        type: z.string(),
        description: z.string().nullable(),
        project: z.string(),
        stale: z.boolean(),
        impressionData: z.boolean(),
        archived: z.boolean(),
      }),
    ),
    featureStrategies: z.array(
      z.object({
        id: z.string(),
        featureName: z.string(),
        name: z.string(),
        title: z.string().nullable(),
        disabled: z.boolean().nullable(),
        sortOrder: z.number(),
        segments: z.array(z.number().int()),
        constraints: z.array(constraintSchema),
        parameters: z.record(z.string(), z.string()),
        variants: z.array(strategyVariantSchema),
      }),
    ),
    featureEnvironments: z.array(
      z.object({
        name: z.string(),
        featureName: z.string(),
        environment: z.string(),
        enabled: z.boolean(),
        variants: z.array(environmentVariantSchema),
      }),
    ),
    contextFields: z.array(
      z.object({
        name: z.string(),
        description: z.string().optional(),
        stickiness: z.boolean(),
        sortOrder: z.number().int(),
        legalValues: z.array(z.object({ value: z.string(), description: z.string().optional() })),
      }),
    ),
    featureTags: z.array(z.object({ featureName: z.string(), tagType: z.string(), tagValue: z.string() })),
    segments: z.array(z.object({ id: z.number(), name: z.string() })),
    tagTypes: z.array(
      z.object({
        name: z.string(),
        description: z.string().nullable(),
        icon: z.string().nullable(),
        color: z.string().nullable(),
      }),
    ),
    dependencies: z.array(
      z.object({
        feature: z.string(),
        dependencies: z.array(
          z.object({ feature: z.string(), enabled: z.boolean(), variants: z.array(z.string()) }),
        ),
      }),
    ),
    links: z.array(
      z.object({
        feature: z.string(),
        links: z.array(z.object({ id: z.string(), url: z.string(), title: z.string().nullable() })),
      }),
    ),
  })
  .strict();

const exportQuerySchema = z.object({
  environment: z.string(),
  features: z.array(z.string().min(1)).optional(),
  tag: z.string().optional(),
  project: z.string().optional(),
  downloadFile: z.boolean().optional(),
});

/** Unleash's importTogglesSchema refuses other fields (400); `data` itself is read tolerantly. */
const importTogglesSchema = z.strictObject({
  project: z.string(),
  environment: z.string(),
  data: z.record(z.string(), z.unknown()).describe("An export document (exportResultSchema)."),
});

const EXPORT_DOCUMENT =
  graphql(`query ExportFeatures($environment: String!, $features: [String!], $tag: String, $project: String) {
  exportFeatures(environment: $environment, features: $features, tag: $tag, project: $project) }`);
const ValidationItemFields = graphql(
  `fragment ValidationItemFields on ImportValidationItem { message affectedItems }`,
);

/** An import's body fields (Unleash's importTogglesSchema: the body must be an object). */
function importVariables(req: RestRequest) {
  const b = objectBody(req);
  return { project: b.project, environment: b.environment, data: b.data };
}

export const importExportRoutes = defineRoutes([
  typedRoute({
    method: "POST",
    path: "/api/admin/features-batch/export",
    tag: "Import/Export",
    summary: "Export feature flags from an environment",
    description:
      "Unleash's export document of the flags selected by `features` (names; an empty list: every flag), else `tag` (`type:value` or a value), else `project`, with their strategies, state and variants in `environment`. `downloadFile` is accepted; the answer is always the JSON document.",
    document: EXPORT_DOCUMENT,
    variables: (req) => {
      const b = objectBody(req);
      return { environment: b.environment, features: b.features, tag: b.tag, project: b.project };
    },
    schemas: { body: exportQuerySchema, response: exportResultSchema },
    errors: [400, 404],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/features-batch/export",
    tag: "Import/Export",
    summary: "Export feature flags from an environment (query string)",
    description:
      "Vexil's GET form of the export (issue 14): `?environment=` with `features=a,b` (none: every flag), `tag=` or `project=`.",
    document: EXPORT_DOCUMENT,
    variables: {
      environment: ({ query }) => query.get("environment"),
      // A comma-separated list; none: every flag, unless `tag` or `project` selects them.
      features: ({ query }) => {
        const features = query.get("features");
        if (features) return features.split(",").filter(Boolean);
        return query.has("tag") || query.has("project") ? null : [];
      },
      tag: ({ query }) => query.get("tag"),
      project: ({ query }) => query.get("project"),
    },
    schemas: {
      query: z.object({
        environment: z.string(),
        features: z.string().optional(),
        tag: z.string().optional(),
        project: z.string().optional(),
      }),
      response: exportResultSchema,
    },
    errors: [400, 404],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/features-batch/validate",
    tag: "Import/Export",
    summary: "Validate feature import data",
    description:
      "What importing `data` into `project`/`environment` would meet: errors (the import would answer 400 with them), warnings, and permissions the caller lacks.",
    document: graphql(
      `query ValidateImport($project: String!, $environment: String!, $data: JSON!) {
        validateFeatureImport(project: $project, environment: $environment, data: $data) {
          errors { ...ValidationItemFields } warnings { ...ValidationItemFields }
          permissions { ...ValidationItemFields } } }`,
      [ValidationItemFields],
    ),
    variables: importVariables,
    schemas: { body: importTogglesSchema },
    errors: [400, 404],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/features-batch/import",
    tag: "Import/Export",
    summary: "Import feature flags",
    description:
      "Imports an export document into `project` and `environment` in one transaction (200, no body). 400 lists every problem found; 403 lists the missing permissions.",
    document: graphql(`mutation ImportFeatures($project: String!, $environment: String!, $data: JSON!) {
      importFeatures(project: $project, environment: $environment, data: $data) { events } }`),
    variables: importVariables,
    emptyBody: true,
    schemas: { body: importTogglesSchema },
    errors: [400, 403, 404],
  }),
]);
