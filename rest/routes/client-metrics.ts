import { z } from "zod";
import { NotFoundError } from "../../src/shared/errors.ts";
import { nodesOf } from "../../src/shared/pagination.ts";
import { defineRoutes } from "../route.ts";
import { integerParam, single } from "../search-params.ts";

/** Unleash's admin metrics paths, mapped onto Query.featureMetrics / clientApplications. */

type Bucket = {
  featureName: string;
  environment: string;
  appName: string;
  hour: string;
  yes: number;
  no: number;
  variants: { name: string; count: number }[];
};
type Application = {
  appName: string;
  sdkVersion: string | null;
  allStrategies: string[];
  description: string | null;
  url: string | null;
  color: string | null;
  icon: string | null;
  usage: { project: string; environments: string[] }[];
};

const BUCKET_FIELDS = "featureName environment appName hour yes no variants { name count }";
const APPLICATION_FIELDS =
  "appName sdkVersion allStrategies description url color icon usage { project environments }";

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

const variantsOf = (b: Bucket) => Object.fromEntries(b.variants.map((v) => [v.name, v.count]));

function rawMetric(b: Bucket) {
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
function applicationBody(app: Application) {
  const { appName, sdkVersion, allStrategies, description, url, color, icon, usage } = app;
  const fields = { appName, sdkVersion, strategies: allStrategies, description, url, color, icon, usage };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null));
}

export const clientMetricsRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/admin/client-metrics/features/:name/raw",
    tag: "Metrics",
    summary: "Get feature metrics",
    description:
      "The flag's SDK counts per application, environment and hour for the last `hoursBack` hours (1 to 720, default 1), oldest first. An unknown flag has none.",
    document: `query FeatureMetricsRaw($name: String!, $hoursBack: Int) {
      featureMetrics(name: $name, hoursBack: $hoursBack) { ${BUCKET_FIELDS} } }`,
    variables: ({ params, query }) => ({
      name: params.name,
      hoursBack: integerParam(query, "hoursBack") ?? 1,
    }),
    respond: (data) => ({
      version: 1,
      maturity: "stable",
      data: (data.featureMetrics as Bucket[]).map(rawMetric),
    }),
    schemas: {
      query: z.object({ hoursBack: z.string().optional().describe("Hours to cover, 1 to 720 (default 1).") }),
      response: z.object({
        version: z.literal(1),
        maturity: z.string(),
        data: z.array(environmentMetricsSchema),
      }),
    },
    errors: [400],
  },
  {
    method: "GET",
    path: "/api/admin/client-metrics/features/:name",
    tag: "Metrics",
    summary: "Last hour of usage and the applications that reported the flag",
    description: "`lastHourUsage`: the current hour's counts per environment; `seenApplications`: by name.",
    document: `query FeatureUsage($name: String!) {
      featureLastHourUsage(name: $name) { environment timestamp: hour yes no }
      featureApplications(name: $name) }`,
    variables: ({ params }) => ({ name: params.name }),
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
        lastHourUsage: z.array(
          z.object({
            environment: z.string(),
            timestamp: z.string(),
            yes: z.number().int(),
            no: z.number().int(),
          }),
        ),
        seenApplications: z.array(z.string()),
      }),
    },
    errors: [],
  },
  {
    method: "GET",
    path: "/api/admin/metrics/applications",
    tag: "Metrics",
    summary: "Get all applications",
    description: "Applications that registered or sent metrics, by name; `query` matches part of the name.",
    document: `query Applications($query: String, $first: Int, $offset: Int) {
      clientApplications(query: $query, first: $first, offset: $offset) {
        totalCount edges { node { ${APPLICATION_FIELDS} } } } }`,
    variables: ({ query }) => ({
      query: single(query, "query"),
      first: integerParam(query, "limit"),
      offset: integerParam(query, "offset"),
    }),
    respond: (data) => {
      const { nodes, totalCount } = nodesOf<Application>(data.clientApplications);
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
  },
  {
    method: "GET",
    path: "/api/admin/metrics/applications/:appName",
    tag: "Metrics",
    summary: "Get application data",
    document: `query Application($appName: String!) { clientApplication(appName: $appName) { ${APPLICATION_FIELDS} } }`,
    variables: ({ params }) => ({ appName: params.appName }),
    respond: (data, { params }) => {
      const app = data.clientApplication as Application | null;
      if (!app) throw new NotFoundError(`Could not find application "${params.appName}"`);
      return applicationBody(app);
    },
    schemas: { response: applicationSchema },
    errors: [404],
  },
]);
