import type { ResourceLimits } from "../../config.ts";
import { recordEvent } from "../../events/record.ts";
import { DomainError } from "../../shared/errors.ts";
import type { Write } from "../../shared/write.ts";
import { changeRequestSetting } from "../feature-environments/guards.read.ts";
import { loadTarget } from "../feature-environments/strategy-record.read.ts";
import type { ReleasePlan } from "./release-plan.types.ts";
import { dueMilestoneIndex } from "./release-plans.logic.ts";
import { claimRunningPlan, planOf } from "./release-plans.read.ts";
import { placeOf, startMilestone, targetOf } from "./release-plans.write.ts";
import { tripFirstSafeguard } from "./safeguards.write.ts";

export type PlanOutcome = "tripped" | "advanced" | "watched" | "refused";

/**
 * Claims the next running plan after `afterId` (no other node holds it) and does what is due,
 * in the claiming transaction: a safeguard that trips rolls the plan back and pauses it; else a
 * milestone whose time is up hands over to the next. The plan's row stays locked until commit,
 * and what is done changes its state, so no plan is acted on twice for one reason. A plan whose
 * environment came to require change requests is paused instead (nothing runs there, D-26).
 * Null when no plan is left.
 */
export async function evaluateNextPlan(
  w: Write,
  afterId: string,
  limits: ResourceLimits,
): Promise<{ plan: ReleasePlan; outcome: PlanOutcome } | null> {
  const plan = await claimRunningPlan(w.tx, afterId);
  if (!plan) return null;
  if (await changeRequestSetting(w.tx, plan.projectId, plan.environment)) {
    const reason = `The "${plan.environment}" environment requires change requests: release plans cannot run there.`;
    return { plan: await pauseRefused(w, plan, reason), outcome: "refused" };
  }
  const recordedBefore = w.recorded.length;
  await w.tx.$executeRawUnsafe("SAVEPOINT release_plan_act");
  try {
    return await act(w, plan, limits);
  } catch (error) {
    // What the flag refuses now (a segment deleted, a limit lowered) pauses the plan, with why.
    if (!(error instanceof DomainError)) throw error;
    await w.tx.$executeRawUnsafe("ROLLBACK TO SAVEPOINT release_plan_act");
    w.recorded.length = recordedBefore;
    return { plan: await pauseRefused(w, plan, error.message), outcome: "refused" };
  }
}

async function act(w: Write, plan: ReleasePlan, limits: ResourceLimits) {
  const tripped = await tripFirstSafeguard(w, plan, limits);
  if (tripped) return { plan: tripped.plan, outcome: "tripped" as const };
  const next = dueMilestoneIndex(plan, w.now);
  if (next === null) return { plan, outcome: "watched" as const };
  await loadTarget(w, targetOf(plan));
  return { plan: await startMilestone(w, plan, next, "schedule", limits), outcome: "advanced" as const };
}

async function pauseRefused(w: Write, plan: ReleasePlan, reason: string): Promise<ReleasePlan> {
  const row = await w.tx.releasePlan.update({
    where: { id: plan.id },
    data: { state: "paused", pausedAt: w.now, pauseReason: { reason }, version: { increment: 1 } },
  });
  const paused = planOf(row);
  await recordEvent(w, {
    ...placeOf(paused),
    type: "release-plan-progressions-paused",
    data: { planId: plan.id, version: paused.version, reason },
  });
  return paused;
}
