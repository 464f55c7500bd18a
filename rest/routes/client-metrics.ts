import { z } from "zod";
import { NotFoundError } from "../../src/shared/errors.ts";
import { nodesOf } from "../../src/shared/pagination.ts";
import { graphql, type ResultOf } from "../graphql.ts";
import { firstFieldSchema } from "../result-schema.ts";
import { defineRoutes, typedRoute } from "../route.ts";
import { integerParam } from "../search-params.ts";
import { withoutNull } from "../shape.ts";

/** Unleash's admin metrics paths, mapped onto Query.featureMetrics / clientApplications. */

const BucketFields = graphql(`
  fragment BucketFields on FeatureMetricsBucket {
    featureName environment appName hour yes no variants { name count }
  }
`);
const ApplicationFields = graphql(`
  fragment ApplicationFields on ClientApplication {
    appName sdkVersion allStrategies description url color icon usage { project environments }
  }
`);

const FEATURE_USAGE = graphql(`query FeatureUsage($name: String!) {
  featureLastHourUsage(name: $name) { environment timestamp: hour yes no }
  featureApplications(name: $name) }`);

const variantsSchema = z.record(z.string(), z.number().int()).describe("Count per variant name.");
const environmentMetricsSchema = z.object({
  featureName: z.string(),
  appName: z.string(),
  environment: z.string(),
  timestamp: z.string().describe("Start of the hour."),
  yes: z.number().int(),
  no: z.number().int(),
  variants: variantsSchema,
});
const applicationSchema = z.object({
  appName: z.string(),
  sdkVersion: z.string().optional().describe("SDK of the most recently seen instance."),
  strategies: z.array(z.string()).describe("Strategies any instance reported or an admin declared."),
  description: z.string().optional(),
  url: z.string().optional(),
  color: z.string().optional(),
  icon: z.string().optional(),
  usage: z
    .array(z.object({ project: z.string(), environments: z.array(z.string()) }))
    .describe("Projects (and environments) of the flags it reported metrics for."),
});

const variantsOf = (b: ResultOf<typeof BucketFields>) =>
  Object.fromEntries(b.variants.map((v) => [v.name, v.count]));

function rawMetric(b: ResultOf<typeof BucketFields>) {
  return {
    featureName: b.featureName,
    appName: b.appName,
    environment: b.environment,
    timestamp: b.hour,
    yes: b.yes,
    no: b.no,
    variants: variantsOf(b),
  };
}

/** Unleash's applicationSchema: the GraphQL fields in its order and names, nulls left out. */
function applicationBody(app: ResultOf<typeof ApplicationFields>) {
  const { appName, sdkVersion, allStrategies, description, url, color, icon, usage } = app;
  const fields = { appName, sdkVersion, strategies: allStrategies, description, url, color, icon, usage };
  return withoutNull(fields, "sdkVersion", "description", "url", "color", "icon");
}

export const clientMetricsRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/client-metrics/features/:name/raw",
    tag: "Metrics",
    summary: "Get feature metrics",
    description:
      "The flag's SDK counts per application, environment and hour for the last `hoursBack` hours (1 to 720, default 1), oldest first. An unknown flag has none.",
    document: graphql(
      `query FeatureMetricsRaw($name: String!, $hoursBack: Int) {
        featureMetrics(name: $name, hoursBack: $hoursBack) { ...BucketFields } }`,
      [BucketFields],
    ),
    variables: { name: "path.name", hoursBack: ({ query }) => integerParam(query, "hoursBack") ?? 1 },
    respond: (data) => ({ version: 1, maturity: "stable", data: data.featureMetrics.map(rawMetric) }),
    schemas: {
      query: z.object({ hoursBack: z.string().optional().describe("Hours to cover, 1 to 720 (default 1).") }),
      response: z.object({
        version: z.literal(1),
        maturity: z.string(),
        data: z.array(environmentMetricsSchema),
      }),
    },
    errors: [400],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/client-metrics/features/:name",
    tag: "Metrics",
    summary: "Last hour of usage and the applications that reported the flag",
    description: "`lastHourUsage`: the current hour's counts per environment; `seenApplications`: by name.",
    document: FEATURE_USAGE,
    variables: { name: "path.name" },
    respond: (data, { params }) => ({
      version: 1,
      maturity: "stable",
      featureName: params.name,
      lastHourUsage: data.featureLastHourUsage,
      seenApplications: data.featureApplications,
    }),
    schemas: {
      response: z.object({
        version: z.literal(1),
        maturity: z.string(),
        featureName: z.string(),
        lastHourUsage: firstFieldSchema(FEATURE_USAGE),
        seenApplications: z.array(z.string()),
      }),
    },
    errors: [],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/metrics/applications",
    tag: "Metrics",
    summary: "Get all applications",
    description: "Applications that registered or sent metrics, by name; `query` matches part of the name.",
    document: graphql(
      `query Applications($query: String, $first: Int, $offset: Int) {
        clientApplications(query: $query, first: $first, offset: $offset) {
          totalCount edges { node { ...ApplicationFields } } } }`,
      [ApplicationFields],
    ),
    variables: { query: "query.query", first: "query.limit:int", offset: "query.offset:int" },
    respond: (data) => {
      const { nodes, totalCount } = nodesOf(data.clientApplications);
      return { total: totalCount, applications: nodes.map(applicationBody) };
    },
    schemas: {
      query: z.object({
        query: z.string().optional().describe("Part of the application name."),
        offset: z.string().optional().describe("Applications to skip (default 0)."),
        limit: z.string().optional().describe("Page size (default and maximum 1000)."),
      }),
      response: z.object({ total: z.number().int(), applications: z.array(applicationSchema) }),
    },
    errors: [400],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/metrics/applications/:appName",
    tag: "Metrics",
    summary: "Get application data",
    document: graphql(
      `query Application($appName: String!) { clientApplication(appName: $appName) { ...ApplicationFields } }`,
      [ApplicationFields],
    ),
    variables: { appName: "path.appName" },
    respond: ({ clientApplication: app }, { params }) => {
      if (!app) throw new NotFoundError(`Could not find application "${params.appName}"`);
      return applicationBody(app);
    },
    schemas: { response: applicationSchema },
    errors: [404],
  }),
]);
