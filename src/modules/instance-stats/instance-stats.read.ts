import { createHash } from "node:crypto";
import type { Context } from "../../context.ts";
import { VERSION } from "../../version.ts";
import { allContextFieldCount } from "../context-fields/context-field.read.ts";
import { environmentCount, productionEnvironmentNames } from "../environments/environment.read.ts";
import { environmentEventCount, eventCountOfType } from "../events/event.read.ts";
import { strategyMaxima } from "../feature-environments/strategy.read.ts";
import { activeFlagCountEverywhere } from "../features/flag-statistics.read.ts";
import { projectCount } from "../projects/project.read.ts";
import { segmentCount } from "../segments/segment.read.ts";
import { strategyDefinitionCount } from "../strategy-definitions/definitions.read.ts";
import { apiTokenCountOfTypes } from "../tokens/api-tokens.read.ts";
import { humanUserCount, licensedUserCount, readOnlyUserCount, roleCount } from "../users/user.read.ts";

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
  const seenSince = (days: number) => humanUserCount(db, ago(now, days));
  const productionChanges = (days: number) =>
    environmentEventCount(db, productionEnvironments, ago(now, days));
  const productionEnvironments = await productionEnvironmentNames(db);
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const yesterday = { gte: ago(today, 1), lt: today };
  const tokensOfType = (types: string[]) => apiTokenCountOfTypes(db, types);
  const maxima = await strategyMaxima(db);
  const stats = {
    instanceId: (await ctx.services.instanceId.get()) ?? "",
    timestamp: now.toISOString(),
    versionOSS: VERSION,
    versionEnterprise: "",
    users: await humanUserCount(db),
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
    licensedUsers: await licensedUserCount(db, ago(now, 30)),
    productionChanges: {
      last30: await productionChanges(30),
      last60: await productionChanges(60),
      last90: await productionChanges(90),
    },
    featureToggles: await activeFlagCountEverywhere(db),
    projects: await projectCount(db),
    contextFields: await allContextFieldCount(db),
    roles: await roleCount(db),
    groups: 0,
    environments: await environmentCount(db),
    segments: await segmentCount(db),
    strategies: await strategyDefinitionCount(db),
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
    featureExports: await eventCountOfType(db, "features-exported"),
    featureImports: await eventCountOfType(db, "features-imported"),
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
    readOnlyUsers: await readOnlyUserCount(db),
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
