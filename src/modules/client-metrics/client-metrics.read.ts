import type { Db } from "../../db/database.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { type PageRequest, prismaPage } from "../../shared/pagination.ts";
import { sqlOf } from "../../shared/sql.ts";

const HOUR_MS = 3_600_000;

export type VariantCount = { name: string; count: number };
/** One flag's counts from one application in one environment during one hour. */
export type FeatureMetricsRow = {
  featureName: string;
  environment: string;
  appName: string;
  hour: Date;
  yes: number;
  no: number;
  variants: VariantCount[];
};

/** From the start of the hour `hoursBack - 1` hours before the current one. */
export const sinceHoursBack = (now: Date, hoursBack: number) =>
  new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS - (hoursBack - 1) * HOUR_MS);

/**
 * A flag's hourly counts per environment and application since `since`, oldest first, each
 * with its variant counts (two statements).
 */
export async function featureMetrics(
  db: Db,
  featureName: string,
  since: Date,
  filter: { environment?: string | null; appName?: string | null } = {},
): Promise<FeatureMetricsRow[]> {
  const where = {
    featureName,
    hour: { gte: since },
    ...(filter.environment ? { environmentName: filter.environment } : {}),
    ...(filter.appName ? { appName: filter.appName } : {}),
  };
  const [counts, variants] = await Promise.all([
    db.clientMetricsHourly.findMany({
      where,
      orderBy: [{ hour: "asc" }, { environmentName: "asc" }, { appName: "asc" }],
    }),
    db.clientVariantMetricsHourly.findMany({ where, orderBy: { variant: "asc" } }),
  ]);
  const key = (r: { environmentName: string; appName: string; hour: Date }) =>
    `${r.environmentName}\u0000${r.appName}\u0000${r.hour.getTime()}`;
  const byRow = new Map<string, VariantCount[]>();
  for (const v of variants) {
    const list = byRow.get(key(v)) ?? [];
    list.push({ name: v.variant, count: v.count });
    byRow.set(key(v), list);
  }
  return counts.map((c) => ({
    featureName: c.featureName,
    environment: c.environmentName,
    appName: c.appName,
    hour: c.hour,
    yes: c.yes,
    no: c.no,
    variants: byRow.get(key(c)) ?? [],
  }));
}

/** Applications whose metrics for the flag are still kept, by name. */
export async function applicationsSeeingFeature(db: Db, featureName: string): Promise<string[]> {
  const rows = await db.clientMetricsHourly.findMany({
    where: { featureName },
    distinct: ["appName"],
    select: { appName: true },
    orderBy: { appName: "asc" },
  });
  return rows.map((r) => r.appName);
}

export type ApplicationInstance = {
  instanceId: string;
  environment: string;
  sdkType: string;
  sdkVersion: string | null;
  platformName: string | null;
  platformVersion: string | null;
  strategies: string[];
  startedAt: Date | null;
  interval: number | null;
  createdAt: Date;
  lastSeenAt: Date;
};
/** A flag an application reported metrics for, with the project and environments. */
export type SeenFlag = { featureName: string; project: string; environments: string[] };
export type Application = {
  appName: string;
  createdAt: Date;
  lastSeenAt: Date;
  description: string | null;
  url: string | null;
  color: string | null;
  icon: string | null;
  /** Strategies an admin declared (its instances report their own). */
  strategies: string[];
  instances: ApplicationInstance[];
  seenFlags: SeenFlag[];
};

/** Applications by name (the name is unique). */
export const APPLICATION_ORDER = [{ field: "appName", descending: false }];

/** A page of applications by name (optionally containing `query`), and how many match. */
export async function applicationsPage(
  db: Db,
  query: string | null | undefined,
  request: PageRequest,
): Promise<{ items: Application[]; total: number }> {
  const where = query ? { appName: { contains: query, mode: "insensitive" as const } } : {};
  const page = prismaPage(request, APPLICATION_ORDER);
  const [apps, total] = await Promise.all([
    db.clientApplication.findMany({
      ...page,
      where: { AND: [where, page.where] },
      include: { instances: { orderBy: [{ environment: "asc" }, { instanceId: "asc" }] } },
    }),
    db.clientApplication.count({ where }),
  ]);
  const seen = await seenFlags(
    db,
    apps.map((a) => a.appName),
  );
  return {
    items: apps.map((a) => ({ ...a, seenFlags: seen.get(a.appName) ?? [] })),
    total,
  };
}

/** One application, or null when none reported under that name. */
export async function application(db: Db, appName: string): Promise<Application | null> {
  const app = await db.clientApplication.findUnique({
    where: { appName },
    include: { instances: { orderBy: [{ environment: "asc" }, { instanceId: "asc" }] } },
  });
  if (!app) return null;
  const seen = await seenFlags(db, [appName]);
  return { ...app, seenFlags: seen.get(appName) ?? [] };
}

type SeenRow = { appName: string; featureName: string; project: string; environments: string[] };

/** Flags each application reported metrics for (while kept), in one statement. */
async function seenFlags(db: Db, appNames: string[]): Promise<Map<string, SeenFlag[]>> {
  const result = new Map<string, SeenFlag[]>();
  if (appNames.length === 0) return result;
  const rows = await sqlOf(db).query<SeenRow>(Prisma.sql`
    SELECT m."appName", m."featureName", f."projectId" AS project,
      array_agg(DISTINCT m."environmentName" ORDER BY m."environmentName") AS environments
    FROM "ClientMetricsHourly" m JOIN "Feature" f ON f.name = m."featureName"
    WHERE m."appName" = ANY(${appNames}::text[])
    GROUP BY m."appName", m."featureName", f."projectId"
    ORDER BY m."appName", m."featureName"`);
  for (const row of rows) {
    const list = result.get(row.appName) ?? [];
    list.push({ featureName: row.featureName, project: row.project, environments: row.environments });
    result.set(row.appName, list);
  }
  return result;
}
