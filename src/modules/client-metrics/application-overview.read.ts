import type { Db } from "../../db/database.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { sqlOf } from "../../shared/sql.ts";
import { strategyDefinitionNames } from "../strategy-definitions/definitions.read.ts";
import { isOutdatedSdk } from "./sdk-versions.logic.ts";
import { UNKNOWN_FLAG_HOURS } from "./unknown-flags.logic.ts";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export type OverviewEnvironment = {
  name: string;
  instanceCount: number;
  sdks: string[];
  frontendSdks: string[];
  backendSdks: string[];
  lastSeen: Date | null;
  outdatedSdks: string[];
  /** Unknown flags it reported there in the last 24 hours. */
  missingFeatures: string[];
};
export type ApplicationOverview = {
  projects: string[];
  featureCount: number;
  environments: OverviewEnvironment[];
  missingStrategies: string[];
};

const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/**
 * What one application uses (Unleash's applicationOverviewSchema): the projects and number of
 * the flags it reported metrics for; per environment its instances, their SDKs (all, frontend,
 * backend, outdated), the unknown flags it reported there and when one was last seen; and the strategies its SDKs reported that no
 * strategy definition has. Null when no application has that name.
 */
export async function applicationOverview(
  db: Db,
  appName: string,
  now: Date,
): Promise<ApplicationOverview | null> {
  const app = await db.clientApplication.findUnique({ where: { appName }, include: { instances: true } });
  if (!app) return null;
  const [flags, definitions, unknown] = await Promise.all([
    sqlOf(db).query<{ featureName: string; project: string }>(Prisma.sql`
      SELECT DISTINCT m."featureName", f."projectId" AS project
      FROM "ClientMetricsHourly" m JOIN "Feature" f ON f.name = m."featureName"
      WHERE m."appName" = ${appName}`),
    strategyDefinitionNames(db),
    sqlOf(db).query<{ name: string; environment: string }>(Prisma.sql`
      SELECT u.name, u.environment FROM "UnknownFlag" u
      WHERE u."appName" = ${appName} AND u."seenAt" >= ${new Date(now.getTime() - UNKNOWN_FLAG_HOURS * HOUR_MS)}
        AND NOT EXISTS (SELECT 1 FROM "Feature" f WHERE f.name = u.name)`),
  ]);
  const environments = new Map<string, typeof app.instances>();
  for (const i of app.instances)
    environments.set(i.environment, [...(environments.get(i.environment) ?? []), i]);
  const known = new Set(definitions);
  const versionsOf = (list: typeof app.instances) =>
    sorted(list.flatMap((i) => (i.sdkVersion ? [i.sdkVersion] : [])));
  return {
    projects: sorted(flags.map((f) => f.project)),
    featureCount: new Set(flags.map((f) => f.featureName)).size,
    environments: [...environments.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, list]) => ({
        name,
        instanceCount: new Set(list.map((i) => i.instanceId)).size,
        sdks: versionsOf(list),
        frontendSdks: versionsOf(list.filter((i) => i.sdkType === "frontend")),
        backendSdks: versionsOf(list.filter((i) => i.sdkType !== "frontend")),
        lastSeen: list.reduce<Date | null>(
          (max, i) => (max && max > i.lastSeenAt ? max : i.lastSeenAt),
          null,
        ),
        outdatedSdks: versionsOf(list).filter(isOutdatedSdk),
        missingFeatures: sorted(unknown.filter((u) => u.environment === name).map((u) => u.name)),
      })),
    missingStrategies: sorted(app.instances.flatMap((i) => i.strategies).filter((s) => !known.has(s))),
  };
}

/**
 * The application's instances in one environment seen in the last 24 hours, most recent
 * first; null when no application has that name.
 */
export async function recentInstances(db: Db, appName: string, environment: string, now: Date) {
  const app = await db.clientApplication.findUnique({ where: { appName }, select: { appName: true } });
  if (!app) return null;
  return db.clientInstance.findMany({
    where: { appName, environment, lastSeenAt: { gte: new Date(now.getTime() - DAY_MS) } },
    orderBy: [{ lastSeenAt: "desc" }, { instanceId: "asc" }],
  });
}
