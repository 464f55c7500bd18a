import type { Db } from "../../db/database.ts";

/** Hourly metrics rows (flag counts and variant counts) of the hours in `[gte, lt)`. */
export async function metricsBucketCounts(db: Db, hours: { gte: Date; lt: Date }) {
  const [enabledCount, variantCount] = await Promise.all([
    db.clientMetricsHourly.count({ where: { hour: hours } }),
    db.clientVariantMetricsHourly.count({ where: { hour: hours } }),
  ]);
  return { enabledCount, variantCount };
}

/** How many applications registered: all kept, and those seen since each of `since`. */
export async function applicationCountsSince(
  db: Db,
  since: readonly Date[],
): Promise<{ all: number; seen: number[] }> {
  const [all, ...seen] = await Promise.all([
    db.clientApplication.count(),
    ...since.map((at) => db.clientApplication.count({ where: { lastSeenAt: { gte: at } } })),
  ]);
  return { all: all ?? 0, seen };
}

/** Whether an SDK reported metrics for a flag of `projectId` (that is still kept). */
export async function projectHasSdkMetrics(db: Db, projectId: string): Promise<boolean> {
  return (
    (await db.clientMetricsHourly.findFirst({
      where: { feature: { projectId } },
      select: { appName: true },
    })) !== null
  );
}
