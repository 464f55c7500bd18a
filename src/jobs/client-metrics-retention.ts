import type { AppScope } from "../context.ts";
import { type Pruned, pruneClientMetrics } from "../modules/client-metrics/retention.job.ts";
import { startPeriodic } from "./periodic.ts";

/**
 * One retention pass over SDK telemetry (client-metrics/retention.job.ts) at the app's clock;
 * this node's view of the kept applications and instances is read again afterwards.
 */
export async function pruneClientMetricsOnce(
  deps: Pick<AppScope, "db" | "config" | "now" | "services">,
): Promise<Pruned | null> {
  const pruned = await pruneClientMetrics(deps.db, deps.now(), deps.config.metrics);
  deps.services.metricsRoom.forget();
  return pruned;
}

/** Starts the pruning (hourly; Unleash clears every few hours). */
export function startClientMetricsRetention(deps: AppScope, intervalMs = 3_600_000): () => void {
  return startPeriodic("SDK metrics retention", intervalMs, deps.logger, () => pruneClientMetricsOnce(deps));
}
