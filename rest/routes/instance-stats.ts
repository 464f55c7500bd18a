import { z } from "zod";
import { graphql } from "../graphql.ts";
import { defineRoutes, typedRoute } from "../route.ts";

const count = z.number().int().min(0);

const statisticsSchema = z.strictObject({
  instanceId: z.string(),
  timestamp: z.string().datetime().nullable(),
  versionOSS: z.string(),
  versionEnterprise: z.string(),
  users: count,
  previousDayMetricsBucketsCount: z.strictObject({ enabledCount: count, variantCount: count }),
  activeUsers: z.strictObject({ last7: count, last30: count, last60: count, last90: count }),
  licensedUsers: count,
  productionChanges: z.strictObject({ last30: count, last60: count, last90: count }),
  featureToggles: count,
  projects: count,
  contextFields: count,
  roles: count,
  groups: count,
  environments: count,
  segments: count,
  strategies: count,
  SAMLenabled: z.boolean(),
  OIDCenabled: z.boolean(),
  clientApps: z.array(z.strictObject({ range: z.enum(["allTime", "30d", "7d"]), count })),
  featureExports: count,
  featureImports: count,
  apiTokens: z.strictObject({ admin: count, client: count, frontend: count }),
  maxEnvironmentStrategies: count,
  maxConstraints: count,
  maxConstraintValues: count,
  releaseTemplates: count,
  releasePlans: count,
  edgeInstanceUsage: z.record(z.string(), z.number().min(0)),
  readOnlyUsers: count,
  sum: z.string(),
});

export const instanceAdminRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/instance-admin/statistics",
    tag: "Instance Admin",
    summary: "Instance usage statistics (admins only)",
    description:
      "Counts of users, flags, projects, environments, segments, strategy types, context fields, roles and API tokens by type, computed on request. Groups, release templates and plans, Edge usage are 0 or empty (not Vexil features).",
    document: graphql(`query InstanceStatistics { instanceStatistics {
      instanceId timestamp versionOSS versionEnterprise users licensedUsers featureToggles projects
      contextFields roles groups environments segments strategies featureExports featureImports
      maxEnvironmentStrategies maxConstraints maxConstraintValues releaseTemplates releasePlans readOnlyUsers
      SAMLenabled OIDCenabled edgeInstanceUsage sum
      activeUsers { last7 last30 last60 last90 } productionChanges { last30 last60 last90 }
      previousDayMetricsBucketsCount { enabledCount variantCount } clientApps { range count }
      apiTokens { admin client frontend } } }`),
    schemas: { response: statisticsSchema },
    errors: [403],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/instance-admin/statistics/csv",
    tag: "Instance Admin",
    summary: "Instance usage statistics as CSV (admins only)",
    description: "The same figures: a header row and a value row; objects and lists as JSON text.",
    document: graphql("query InstanceStatisticsCsv { instanceStatistics { csv } }"),
    respond: (data) => data.instanceStatistics.csv,
    contentType: "text/csv",
    schemas: { response: z.string() },
    errors: [403],
  }),
]);
