import type { Write } from "../../shared/write.ts";

export type EvaluationCounts = {
  featureName: string;
  environment: string;
  yes: number;
  no: number;
  /** When the SDK evaluated (its bucket's time); the hour bucket is derived from it. */
  at: Date;
};

const HOUR_MS = 60 * 60 * 1000;

/**
 * The lifecycle hook for evaluation metrics (reference §7.2): adds the counts to the flag's
 * hourly bucket, moves `lastSeenAt` forward, and enters `pre-live` on the first metrics from
 * any environment and `live` on metrics from a production environment where the flag is on.
 * Unknown flags or environments are ignored, as SDKs report what they were asked about.
 * Records no audit event (metrics are not changes). Returns the stages newly entered.
 */
export async function recordEvaluationMetrics(w: Write, counts: EvaluationCounts): Promise<string[]> {
  const state = await w.tx.featureEnvironment.findUnique({
    where: {
      featureName_environmentName: { featureName: counts.featureName, environmentName: counts.environment },
    },
    include: {
      environment: { select: { type: true } },
      feature: { select: { archivedAt: true, lastSeenAt: true } },
    },
  });
  if (!state || state.feature.archivedAt) return [];
  const hour = new Date(Math.floor(counts.at.getTime() / HOUR_MS) * HOUR_MS);
  await w.tx.featureMetricsHourly.upsert({
    where: {
      featureName_environmentName_hour: {
        featureName: counts.featureName,
        environmentName: counts.environment,
        hour,
      },
    },
    create: {
      featureName: counts.featureName,
      environmentName: counts.environment,
      hour,
      yes: counts.yes,
      no: counts.no,
    },
    update: { yes: { increment: counts.yes }, no: { increment: counts.no } },
  });
  const key = { featureName: counts.featureName, environmentName: counts.environment };
  if (!state.lastSeenAt || state.lastSeenAt < counts.at) {
    await w.tx.featureEnvironment.update({
      where: { featureName_environmentName: key },
      data: { lastSeenAt: counts.at },
    });
  }
  if (!state.feature.lastSeenAt || state.feature.lastSeenAt < counts.at) {
    await w.tx.feature.update({ where: { name: counts.featureName }, data: { lastSeenAt: counts.at } });
  }
  const wanted = ["pre-live", ...(state.environment.type === "production" && state.enabled ? ["live"] : [])];
  const entered: string[] = [];
  for (const [i, stage] of wanted.entries()) {
    // Entering both at once stamps `live` 1 ms later, so "the latest stage" is well defined.
    const created = await w.tx.featureLifecycle.createMany({
      data: [{ featureName: counts.featureName, stage, createdAt: new Date(w.now.getTime() + i) }],
      skipDuplicates: true,
    });
    if (created.count > 0) entered.push(stage);
  }
  return entered;
}
