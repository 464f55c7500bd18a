import type { AppDeps } from "../context.ts";
import { rollUpEventCounts } from "../modules/events/event-counts.job.ts";
import { startPeriodic } from "./periodic.ts";

/**
 * Starts the event-count rollup (every 15 s): keeps the live part of an event-search total (the
 * events newer than the rollup) short. Totals are exact whether or not it runs.
 */
export function startEventCountRollup(deps: Pick<AppDeps, "db" | "logger">, intervalMs = 15_000): () => void {
  return startPeriodic("event-count rollup", intervalMs, deps.logger, () => rollUpEventCounts(deps.db));
}
