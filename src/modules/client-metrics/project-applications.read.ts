import type { Db } from "../../db/database.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { listWindow } from "../../shared/pagination.ts";
import { sqlOf } from "../../shared/sql.ts";
import { isOutdatedSdk, splitSdkVersion } from "./sdk-versions.logic.ts";

export type ProjectApplication = {
  name: string;
  environments: string[];
  instances: string[];
  sdks: { name: string; versions: string[] }[];
};
export type OutdatedSdk = { sdkVersion: string; applications: string[] };

type UsageRow = { appName: string; environments: string[] };

/** Applications that reported metrics for the project's flags, with the environments they did so in. */
async function projectUsage(db: Db, projectId: string): Promise<UsageRow[]> {
  return sqlOf(db).query<UsageRow>(Prisma.sql`
    SELECT m."appName", array_agg(DISTINCT m."environmentName" ORDER BY m."environmentName") AS environments
    FROM "ClientMetricsHourly" m JOIN "Feature" f ON f.name = m."featureName"
    WHERE f."projectId" = ${projectId}
    GROUP BY m."appName" ORDER BY m."appName"`);
}

/**
 * A page of the applications that used the project's flags (reported metrics for them), by
 * name (`descending` reverses), optionally only names containing `query`: each with those
 * environments, its instances there and their SDKs grouped by name. Callers check the project.
 */
export async function projectApplications(
  db: Db,
  projectId: string,
  args: { query?: string | null; offset?: number | null; first?: number | null; descending?: boolean },
): Promise<{ total: number; applications: ProjectApplication[] }> {
  const window = listWindow(args, { defaultLimit: 50, maxLimit: 1000 });
  const needle = args.query?.toLowerCase();
  const usage = (await projectUsage(db, projectId)).filter(
    (u) => !needle || u.appName.toLowerCase().includes(needle),
  );
  if (args.descending) usage.reverse();
  const page = usage.slice(window.skip, window.skip + window.take);
  const instances = await db.clientInstance.findMany({
    where: { appName: { in: page.map((u) => u.appName) } },
    select: { appName: true, instanceId: true, environment: true, sdkVersion: true },
    orderBy: [{ appName: "asc" }, { instanceId: "asc" }],
  });
  return {
    total: usage.length,
    applications: page.map((u) => {
      const mine = instances.filter((i) => i.appName === u.appName && u.environments.includes(i.environment));
      const sdks = new Map<string, Set<string>>();
      for (const i of mine) {
        const sdk = splitSdkVersion(i.sdkVersion);
        if (!sdk) continue;
        sdks.set(sdk.name, (sdks.get(sdk.name) ?? new Set()).add(sdk.version));
      }
      return {
        name: u.appName,
        environments: u.environments,
        instances: [...new Set(mine.map((i) => i.instanceId))],
        sdks: [...sdks.entries()]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([name, versions]) => ({ name, versions: [...versions].sort() })),
      };
    }),
  };
}

/**
 * Outdated SDK versions in use (isOutdatedSdk), each with the applications running it, by
 * version; with a project, only the applications that used its flags.
 */
export async function outdatedSdks(db: Db, projectId?: string): Promise<OutdatedSdk[]> {
  const appNames = projectId ? (await projectUsage(db, projectId)).map((u) => u.appName) : undefined;
  const instances = await db.clientInstance.findMany({
    where: { sdkVersion: { not: null }, ...(appNames ? { appName: { in: appNames } } : {}) },
    select: { appName: true, sdkVersion: true },
    distinct: ["appName", "sdkVersion"],
  });
  const bySdk = new Map<string, Set<string>>();
  for (const i of instances) {
    if (!i.sdkVersion || !isOutdatedSdk(i.sdkVersion)) continue;
    bySdk.set(i.sdkVersion, (bySdk.get(i.sdkVersion) ?? new Set()).add(i.appName));
  }
  return [...bySdk.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([sdkVersion, apps]) => ({ sdkVersion, applications: [...apps].sort() }));
}
