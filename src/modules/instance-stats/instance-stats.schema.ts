import { builder } from "../../builder.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { type InstanceStatistics, instanceStatistics, statisticsCsv } from "./instance-stats.read.ts";

type Windows = { last7?: number; last30: number; last60: number; last90: number };

/** An object of counts within the last 30, 60 and 90 days, and 7 when `withLast7`. */
const windowsObject = (name: string, description: string, withLast7: boolean) =>
  builder.objectRef<Windows>(name).implement({
    description,
    fields: (t) => ({
      ...(withLast7 ? { last7: t.int({ description: "Last 7 days.", resolve: (w) => w.last7 ?? 0 }) } : {}),
      last30: t.exposeInt("last30", { description: "Last 30 days." }),
      last60: t.exposeInt("last60", { description: "Last 60 days." }),
      last90: t.exposeInt("last90", { description: "Last 90 days." }),
    }),
  });

const ActiveUsers = windowsObject(
  "InstanceActiveUsers",
  "Users (not deleted) who logged in or used a session within each window.",
  true,
);
const ProductionChanges = windowsObject(
  "InstanceProductionChanges",
  "Events recorded in production-type environments within each window.",
  false,
);

const MetricsBuckets = builder
  .objectRef<{ enabledCount: number; variantCount: number }>("InstanceMetricsBuckets")
  .implement({
    description: "Hourly client-metrics rows of the previous UTC day.",
    fields: (t) => ({
      enabledCount: t.exposeInt("enabledCount", { description: "Enabled/disabled count rows." }),
      variantCount: t.exposeInt("variantCount", { description: "Variant count rows." }),
    }),
  });

const ClientApps = builder.objectRef<{ range: string; count: number }>("InstanceClientApps").implement({
  description: "Client applications seen within a range.",
  fields: (t) => ({
    range: t.exposeString("range", { description: "allTime, 30d or 7d." }),
    count: t.exposeInt("count", { description: "Applications registered or seen in the range." }),
  }),
});

const TokenCounts = builder
  .objectRef<{ admin: number; client: number; frontend: number }>("InstanceApiTokenCounts")
  .implement({
    description: "API tokens by type.",
    fields: (t) => ({
      admin: t.exposeInt("admin", { description: "Admin tokens." }),
      client: t.exposeInt("client", { description: "Client (backend) tokens." }),
      frontend: t.exposeInt("frontend", { description: "Frontend tokens." }),
    }),
  });

const COUNTS = {
  users: "Users who can log in (not deleted, no service identities).",
  licensedUsers: "Users seen in the last 30 days, deleted ones included.",
  featureToggles: "Flags not archived.",
  projects: "Projects.",
  contextFields: "Context fields.",
  roles: "Roles (root, project and custom).",
  groups: "User groups: Vexil has none (always 0).",
  environments: "Environments.",
  segments: "Segments.",
  strategies: "Strategy types.",
  featureExports: "features-exported events (Vexil does not record them yet: 0).",
  featureImports: "features-imported events (Vexil does not record them yet: 0).",
  maxEnvironmentStrategies: "Most strategies of one active flag in one environment.",
  maxConstraints: "Most constraints of one strategy of an active flag.",
  maxConstraintValues: "Most values of one constraint of an active flag's strategy.",
  releaseTemplates: "Release templates: not a Vexil feature (0).",
  releasePlans: "Release plans: not a Vexil feature (0).",
  readOnlyUsers: "Users with the Viewer root role and no project role.",
} as const;

const InstanceStatisticsRef = builder.objectRef<InstanceStatistics>("InstanceStatistics").implement({
  description:
    "Usage statistics of this instance (Unleash's instance-admin statistics), computed on request.",
  fields: (t) => ({
    ...(Object.fromEntries(
      Object.entries(COUNTS).map(([name, description]) => [
        name,
        t.exposeInt(name as keyof typeof COUNTS, { description }),
      ]),
    ) as Record<keyof typeof COUNTS, ReturnType<typeof t.exposeInt>>),
    instanceId: t.exposeString("instanceId", { description: "This instance's id (set at first start)." }),
    timestamp: t.exposeString("timestamp", { description: "When the figures were computed (RFC 3339)." }),
    versionOSS: t.exposeString("versionOSS", { description: "Vexil's version." }),
    versionEnterprise: t.exposeString("versionEnterprise", { description: "Always empty." }),
    SAMLenabled: t.exposeBoolean("SAMLenabled", { description: "Always false: Vexil has no SAML." }),
    OIDCenabled: t.exposeBoolean("OIDCenabled", { description: "Always false: Vexil has no OIDC." }),
    activeUsers: t.expose("activeUsers", { type: ActiveUsers, description: "Active users." }),
    productionChanges: t.expose("productionChanges", {
      type: ProductionChanges,
      description: "Changes in production.",
    }),
    previousDayMetricsBucketsCount: t.expose("previousDayMetricsBucketsCount", {
      type: MetricsBuckets,
      description: "Metrics rows of the previous day.",
    }),
    clientApps: t.expose("clientApps", { type: [ClientApps], description: "Client applications." }),
    apiTokens: t.expose("apiTokens", { type: TokenCounts, description: "API tokens by type." }),
    edgeInstanceUsage: t.expose("edgeInstanceUsage", {
      type: "JSON",
      description: "Unleash Edge usage: Vexil has no Edge (always {}).",
    }),
    sum: t.exposeString("sum", { description: "SHA-256 of the other figures." }),
    csv: t.string({
      description: "The same figures as CSV (a header row and a value row).",
      resolve: (s) => statisticsCsv(s),
    }),
  }),
});

builder.queryField("instanceStatistics", (t) =>
  t.field({
    type: InstanceStatisticsRef,
    description: "Usage statistics of this instance (admins only).",
    authScopes: { permission: { permission: PERMISSIONS.ADMIN } },
    resolve: (_root, _args, ctx) => instanceStatistics(ctx),
  }),
);
