import { z } from "zod";
import { NotFoundError } from "../../src/shared/errors.ts";
import { graphql } from "../graphql.ts";
import { firstFieldSchema } from "../result-schema.ts";
import { defineRoutes, typedRoute } from "../route.ts";

/** Unleash's per-application metrics pages and the instance-wide outdated SDK list. */

const OUTDATED_SDKS = graphql("query OutdatedSdks { outdatedSdks { sdkVersion applications } }");
const UNKNOWN_FLAGS = graphql(`query UnknownFlags { unknownFlags {
  name lastSeenAt lastEventAt reports { appName environments { environment seenAt } } } }`);

const missing = (appName: string | undefined) => new NotFoundError(`Could not find application "${appName}"`);

export const applicationMetricsRoutes = defineRoutes([
  typedRoute({
    method: "POST",
    path: "/api/admin/metrics/applications/:appName",
    tag: "Metrics",
    summary: "Create an application to connect reported metrics",
    description:
      "Creates the application or sets the metadata given (fields left out are kept); records `application-created`. Answers 202 without a body.",
    document:
      graphql(`mutation SaveApplication($appName: String!, $description: String, $url: String, $color: String, $icon: String, $strategies: [String!]) {
      saveApplication(appName: $appName, description: $description, url: $url, color: $color, icon: $icon, strategies: $strategies) }`),
    // A field the body leaves out keeps its value.
    variables: {
      description: "body.description?",
      url: "body.url?",
      color: "body.color?",
      icon: "body.icon?",
      strategies: "body.strategies?",
      appName: "path.appName",
    },
    status: 202,
    schemas: {
      body: z.object({
        description: z.string().optional(),
        strategies: z.array(z.string()).optional(),
        url: z.string().optional(),
        color: z.string().optional(),
        icon: z.string().optional(),
      }),
    },
    errors: [400, 403],
  }),
  typedRoute({
    method: "DELETE",
    path: "/api/admin/metrics/applications/:appName",
    tag: "Metrics",
    summary: "Delete an application",
    description: "Forgets the application and its instances; an unknown name is a no-op. 200 without a body.",
    document: graphql(
      "mutation DeleteApplication($appName: String!) { deleteApplication(appName: $appName) }",
    ),
    variables: { appName: "path.appName" },
    emptyBody: true,
    errors: [403],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/metrics/applications/:appName/overview",
    tag: "Metrics",
    summary: "Get application overview",
    description:
      "Projects and number of the flags the application reported metrics for; per environment its instances, SDKs (outdated ones as issues) and last sighting; strategies its SDKs know that no strategy definition has. `missingFeatures`: flag names it reported there in the last 24 hours that no flag has.",
    document: graphql(`query ApplicationOverview($appName: String!) { applicationOverview(appName: $appName) {
      projects featureCount missingStrategies
      environments { name instanceCount sdks frontendSdks backendSdks lastSeen outdatedSdks missingFeatures }
    } }`),
    variables: { appName: "path.appName" },
    respond: ({ applicationOverview: overview }, { params }) => {
      if (!overview) throw missing(params.appName);
      return {
        projects: overview.projects,
        featureCount: overview.featureCount,
        environments: overview.environments.map(({ outdatedSdks, missingFeatures, ...env }) => ({
          ...env,
          issues: { missingFeatures, outdatedSdks },
        })),
        issues: { missingStrategies: overview.missingStrategies },
      };
    },
    schemas: {
      response: z.object({
        projects: z.array(z.string()),
        featureCount: z.number(),
        environments: z.array(
          z.object({
            name: z.string(),
            instanceCount: z.number(),
            sdks: z.array(z.string()),
            frontendSdks: z.array(z.string()),
            backendSdks: z.array(z.string()),
            lastSeen: z.string().datetime().nullable(),
            issues: z.object({ missingFeatures: z.array(z.string()), outdatedSdks: z.array(z.string()) }),
          }),
        ),
        issues: z.object({ missingStrategies: z.array(z.string()) }),
      }),
    },
    errors: [404],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/metrics/instances/:appName/environment/:environment",
    tag: "Metrics",
    summary: "Get application environment instances (Last 24h)",
    description:
      "The application's instances in the environment seen in the last 24 hours, most recent first. `clientIp` is null: Vexil does not keep SDK addresses.",
    document: graphql(`query ApplicationInstances($appName: String!, $environment: String!) {
      applicationRecentInstances(appName: $appName, environment: $environment) { instanceId sdkVersion lastSeenAt } }`),
    variables: { appName: "path.appName", environment: "path.environment" },
    respond: ({ applicationRecentInstances: instances }, { params }) => {
      if (!instances) throw missing(params.appName);
      return {
        instances: instances.map((i) => ({
          instanceId: i.instanceId,
          sdkVersion: i.sdkVersion,
          clientIp: null,
          lastSeen: i.lastSeenAt,
        })),
      };
    },
    schemas: {
      response: z.object({
        instances: z.array(
          z.object({
            instanceId: z.string(),
            sdkVersion: z.string().nullable(),
            clientIp: z.string().nullable(),
            lastSeen: z.string().datetime(),
          }),
        ),
      }),
    },
    errors: [404],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/metrics/sdks/outdated",
    tag: "Metrics",
    summary: "Get outdated SDKs",
    description:
      "SDK versions in use older than Unleash's recommended minimum, with the applications running them.",
    document: OUTDATED_SDKS,
    respond: (data) => ({ sdks: data.outdatedSdks }),
    schemas: { response: z.object({ sdks: firstFieldSchema(OUTDATED_SDKS) }) },
    errors: [],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/metrics/unknown-flags",
    tag: "Unknown Flags",
    summary: "Get unknown flags",
    description:
      "Flag names SDKs reported metrics for in the last 24 hours that match no flag, most recently seen first (at most 1000), with who reported them where and when.",
    document: UNKNOWN_FLAGS,
    respond: (data) => ({ unknownFlags: data.unknownFlags }),
    schemas: { response: z.object({ unknownFlags: firstFieldSchema(UNKNOWN_FLAGS) }) },
    errors: [],
  }),
]);
