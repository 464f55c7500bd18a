import type { ResourceLimits } from "../../config.ts";
import { recordEvent } from "../../events/record.ts";
import { DomainError, NotFoundError } from "../../shared/errors.ts";
import { sqlOf } from "../../shared/sql.ts";
import type { Write } from "../../shared/write.ts";
import { openChangeRequest } from "../change-requests/system-requests.write.ts";
import { changeRequestSetting } from "../feature-environments/guards.read.ts";
import { loadTarget } from "../feature-environments/strategy-record.read.ts";
import type { ReleasePlan } from "./release-plan.types.ts";
import { dueMilestoneIndex } from "./release-plans.logic.ts";
import { claimRunningPlan, planOf } from "./release-plans.read.ts";
import { placeOf, startMilestone, targetOf } from "./release-plans.write.ts";
import { tripFirstSafeguard } from "./safeguards.write.ts";

/**
 * `tripped`: a safeguard rolled it back; `advanced`: its next milestone started; `proposed`: its
 * next milestone is due where change requests are required, and a request for it was opened;
 * `awaiting`: that request is still open (or was turned down: a person moves the plan on now);
 * `watched`: nothing due; `refused`: what was due failed, and the plan paused with why.
 */
export type PlanOutcome = "tripped" | "advanced" | "proposed" | "awaiting" | "watched" | "refused";

/**
 * Claims the next running plan after `afterId` (no other node holds it) and does what is due,
 * in the claiming transaction: a safeguard that trips rolls the plan back and pauses it, even
 * where change requests are required (a safety action, D-26); else a milestone whose time is up
 * hands over to the next, or, where change requests are required, is proposed once in
 * a change request of the plan's own and awaited. The plan's row stays locked until commit, and what is done
 * changes its state, so no plan is acted on twice for one reason. Null when no plan is left.
 */
export async function evaluateNextPlan(
  w: Write,
  afterId: string,
  limits: ResourceLimits,
): Promise<{ plan: ReleasePlan; outcome: PlanOutcome } | null> {
  const plan = await claimRunningPlan(w.tx, afterId);
  if (!plan) return null;
  const recordedBefore = w.recorded.length;
  await sqlOf(w.tx).execute`SAVEPOINT release_plan_act`;
  try {
    return await act(w, plan, limits);
  } catch (error) {
    // What the flag refuses now (a segment deleted, a limit lowered) pauses the plan, with why.
    if (!(error instanceof DomainError)) throw error;
    await sqlOf(w.tx).execute`ROLLBACK TO SAVEPOINT release_plan_act`;
    w.recorded.length = recordedBefore;
    return { plan: await pauseRefused(w, plan, error.message), outcome: "refused" };
  }
}

async function act(w: Write, plan: ReleasePlan, limits: ResourceLimits) {
  const tripped = await tripFirstSafeguard(w, plan, limits);
  if (tripped) return { plan: tripped.plan, outcome: "tripped" as const };
  const next = dueMilestoneIndex(plan, w.now);
  if (next === null) return { plan, outcome: "watched" as const };
  if (await changeRequestSetting(w.tx, plan.projectId, plan.environment)) {
    if (plan.stepChangeRequestId !== null) return { plan, outcome: "awaiting" as const };
    return { plan: await proposeStep(w, plan, next, limits), outcome: "proposed" as const };
  }
  await loadTarget(w, targetOf(plan));
  return { plan: await startMilestone(w, plan, next, "schedule", limits), outcome: "advanced" as const };
}

/**
 * Opens the change request that starts milestone `index` (the system is its author, so any
 * approver may approve it), and the plan waits for it (no event of the plan's: the request's).
 */
async function proposeStep(w: Write, plan: ReleasePlan, index: number, limits: ResourceLimits) {
  const milestone = plan.milestones[index];
  if (!milestone) throw new NotFoundError(`The release plan has no milestone ${index + 1}.`);
  const change = {
    action: "startMilestone" as const,
    feature: plan.featureName,
    payload: { planId: plan.id, milestoneId: milestone.id },
  };
  const title = `Release plan "${plan.name}" of ${plan.featureName}: start "${milestone.name}"`;
  const scope = { project: plan.projectId, environment: plan.environment };
  const id = await openChangeRequest(w, scope, title, [change], limits);
  const row = await w.tx.releasePlan.update({
    where: { id: plan.id },
    data: { stepChangeRequestId: id, version: { increment: 1 } },
  });
  return planOf(row);
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
