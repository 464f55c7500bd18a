import { createHash } from "node:crypto";
import type { Context } from "../../context.ts";
import { sqlOf } from "../../shared/sql.ts";
import { VERSION } from "../../version.ts";

const DAY_MS = 86_400_000;
const ago = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

/**
 * Usage statistics of this instance, in Unleash's instanceAdminStatsSchema shape: counts of
 * what Vexil stores, computed now from the tables (nothing is cached or sampled). What Vexil does
 * not have (groups, release templates and plans, Edge usage, SAML/OIDC) is 0, empty or false.
 */
export async function instanceStatistics(ctx: Pick<Context, "db" | "now" | "services">) {
  const { db } = ctx;
  const now = ctx.now();
  const humans = { deletedAt: null, isService: false } as const;
  const seenSince = (days: number) =>
    db.user.count({ where: { ...humans, seenAt: { gte: ago(now, days) } } });
  const productionChanges = (days: number) =>
    db.event.count({
      where: {
        createdAt: { gte: ago(now, days) },
        environment: { in: productionEnvironments },
      },
    });
  const productionEnvironments = (
    await db.environment.findMany({ where: { type: "production" }, select: { name: true } })
  ).map((e) => e.name);
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const yesterday = { gte: ago(today, 1), lt: today };
  const tokensOfType = (types: string[]) => db.apiToken.count({ where: { type: { in: types } } });
  const [maxima] = await sqlOf(db).query<{
    strategies: number;
    constraints: number;
    constraintValues: number;
  }>`WITH active AS (
      SELECT s.* FROM "FeatureStrategy" s JOIN "Feature" f ON f.name = s."featureName" WHERE f."archivedAt" IS NULL
    )
    SELECT
      (SELECT COALESCE(MAX(n), 0)::int FROM (SELECT count(*) AS n FROM active GROUP BY "featureName", "environmentName") x) AS strategies,
      (SELECT COALESCE(MAX(jsonb_array_length(constraints)), 0)::int FROM active WHERE jsonb_typeof(constraints) = 'array') AS constraints,
      (SELECT COALESCE(MAX(jsonb_array_length(c->'values')), 0)::int
         FROM active, jsonb_array_elements(CASE WHEN jsonb_typeof(constraints) = 'array' THEN constraints ELSE '[]'::jsonb END) c
         WHERE jsonb_typeof(c->'values') = 'array') AS "constraintValues"`;
  const stats = {
    instanceId: (await ctx.services.instanceId.get()) ?? "",
    timestamp: now.toISOString(),
    versionOSS: VERSION,
    versionEnterprise: "",
    users: await db.user.count({ where: humans }),
    previousDayMetricsBucketsCount: {
      enabledCount: await db.clientMetricsHourly.count({ where: { hour: yesterday } }),
      variantCount: await db.clientVariantMetricsHourly.count({ where: { hour: yesterday } }),
    },
    activeUsers: {
      last7: await seenSince(7),
      last30: await seenSince(30),
      last60: await seenSince(60),
      last90: await seenSince(90),
    },
    // Users seen in the last 30 days, deleted ones included (Unleash's definition).
    licensedUsers: await db.user.count({ where: { isService: false, seenAt: { gte: ago(now, 30) } } }),
    productionChanges: {
      last30: await productionChanges(30),
      last60: await productionChanges(60),
      last90: await productionChanges(90),
    },
    featureToggles: await db.feature.count({ where: { archivedAt: null } }),
    projects: await db.project.count(),
    contextFields: await db.contextField.count(),
    roles: await db.role.count(),
    groups: 0,
    environments: await db.environment.count(),
    segments: await db.segment.count(),
    strategies: await db.strategyDefinition.count(),
    SAMLenabled: false,
    OIDCenabled: false,
    clientApps: [
      { range: "allTime", count: await db.clientApplication.count() },
      {
        range: "30d",
        count: await db.clientApplication.count({ where: { lastSeenAt: { gte: ago(now, 30) } } }),
      },
      {
        range: "7d",
        count: await db.clientApplication.count({ where: { lastSeenAt: { gte: ago(now, 7) } } }),
      },
    ],
    featureExports: await db.event.count({ where: { type: "features-exported" } }),
    featureImports: await db.event.count({ where: { type: "features-imported" } }),
    apiTokens: {
      admin: await tokensOfType(["admin"]),
      client: await tokensOfType(["client", "backend"]),
      frontend: await tokensOfType(["frontend"]),
    },
    maxEnvironmentStrategies: maxima?.strategies ?? 0,
    maxConstraints: maxima?.constraints ?? 0,
    maxConstraintValues: maxima?.constraintValues ?? 0,
    releaseTemplates: 0,
    releasePlans: 0,
    edgeInstanceUsage: {},
    // Viewers who hold no project role: they can read and change nothing.
    readOnlyUsers: await db.user.count({
      where: { ...humans, rootRole: "Viewer", projectMemberships: { none: {} } },
    }),
  };
  return { ...stats, sum: checksum(stats) };
}

/** SHA-256 of the figures, so a report pasted elsewhere can be checked for edits. */
function checksum(stats: Record<string, unknown>): string {
  return createHash("sha256").update(JSON.stringify(stats)).digest("hex");
}

export type InstanceStatistics = Awaited<ReturnType<typeof instanceStatistics>>;

/** The statistics as Unleash's CSV: one header row, one value row; objects and arrays as JSON. */
export function statisticsCsv(stats: InstanceStatistics): string {
  const cell = (value: unknown) => {
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    const text = typeof value === "string" ? value : JSON.stringify(value);
    return `"${text.replaceAll('"', '""')}"`;
  };
  const keys = Object.keys(stats) as (keyof InstanceStatistics)[];
  return `${keys.map(cell).join(",")}\n${keys.map((k) => cell(stats[k])).join(",")}\n`;
}
