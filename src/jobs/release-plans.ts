import type { AppBase } from "../context.ts";
import { evaluateNextPlan, type PlanOutcome } from "../modules/release-plans/release-plans.job.ts";
import { SYSTEM_ACTOR } from "../shared/actor.ts";
import { runWrite } from "../shared/write.ts";
import { startPeriodic } from "./periodic.ts";

export type ReleasePlanDeps = Pick<
  AppBase,
  "db" | "bus" | "config" | "logger" | "eventHooks" | "changeKinds" | "now"
>;

/** At most this many plans per run, so one run never holds the process for long. */
const MAX_PER_RUN = 500;

/**
 * One pass over the running release plans (release-plans.job.ts), each in its own transaction
 * as the system: safeguards read, trips rolled back, timed milestones started (or, where change
 * requests are required, proposed in a change request). Safe from several nodes at once (each plan is claimed by one, `SKIP LOCKED`); what a
 * pass did, by plan id. A plan the flag refuses is paused with the reason; a database failure
 * ends the pass (logged by startPeriodic), the next one starts over.
 */
export async function runReleasePlansOnce(deps: ReleasePlanDeps): Promise<Map<string, PlanOutcome>> {
  const done = new Map<string, PlanOutcome>();
  const ctx = { ...deps, principal: null };
  let afterId = "";
  for (let i = 0; i < MAX_PER_RUN; i++) {
    const evaluated = await runWrite(ctx, (w) => evaluateNextPlan(w, afterId, deps.config.limits), {
      actor: SYSTEM_ACTOR,
      groupType: "release-plan",
    });
    if (evaluated === null) break;
    afterId = evaluated.plan.id;
    done.set(evaluated.plan.id, evaluated.outcome);
  }
  return done;
}

/** Starts the periodic pass (`VEXIL_RELEASE_PLANS_INTERVAL_MS`); returns the stop function. */
export function startReleasePlans(
  deps: ReleasePlanDeps,
  intervalMs = deps.config.releasePlansIntervalMs,
): () => void {
  return startPeriodic("release plans", intervalMs, deps.logger, () => runReleasePlansOnce(deps));
}
