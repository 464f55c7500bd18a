import { randomUUID } from "node:crypto";
import type { ResourceLimits } from "../../config.ts";
import type { MILESTONE_START_CAUSES } from "../../events/payloads.ts";
import { recordEvent } from "../../events/record.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { ConflictError, InvalidOperationError, NotFoundError } from "../../shared/errors.ts";
import { sqlOf } from "../../shared/sql.ts";
import type { Write } from "../../shared/write.ts";
import { changeEnablement } from "../feature-environments/enablement.write.ts";
import type { NewStrategyInput } from "../feature-environments/strategy.inputs.ts";
import { type EnvironmentTarget, loadTarget } from "../feature-environments/strategy-record.read.ts";
import { replaceStrategies } from "../feature-environments/strategy-replace.write.ts";
import type { Milestone, ReleasePlan } from "./release-plan.types.ts";
import { lockPlan, lockTemplate, planOf } from "./release-plans.read.ts";
import { checkedSafeguards } from "./safeguard-checks.read.ts";

/** A plan as events carry it. */
export const planPayload = (p: ReleasePlan) => ({
  id: p.id,
  templateId: p.templateId,
  name: p.name,
  milestones: p.milestones,
  safeguards: p.safeguards,
});

/**
 * Applies a template to a flag in one environment (release-plan-added): a plan with the
 * template's milestones, and `safeguards`. Every milestone is tried first, in a savepoint rolled
 * back (strategy types, constraints, segments, limits), so a plan that could not run is refused
 * whole. With `start`, the first milestone starts at once. The template stays locked (shared)
 * until commit, so it is not edited or deleted meanwhile. Where the environment requires change
 * requests, callers check the direct change first (the schema), or apply an approved
 * `addReleasePlan` (D-26). Throws NotFound, Archived (the flag), InvalidOperation (archived
 * template), Conflict (a plan exists), Validation.
 */
export async function applyTemplate(
  w: Write,
  on: EnvironmentTarget,
  templateId: string,
  options: { safeguards: unknown; start: boolean; limits: ResourceLimits; cause?: StartCause },
): Promise<ReleasePlan> {
  await loadTarget(w, on);
  const template = await lockTemplate(w.tx, templateId, "share");
  if (template.archivedAt)
    throw new InvalidOperationError(`The release template "${template.name}" is archived.`);
  const existing = await w.tx.releasePlan.findUnique({
    where: { featureName_environment: { featureName: on.feature, environment: on.environment } },
  });
  if (existing) {
    throw new ConflictError(
      `${on.feature} already has a release plan in the "${on.environment}" environment.`,
    );
  }
  const safeguards = await checkedSafeguards(w.tx, on, options.safeguards);
  const milestones = template.milestones;
  await tryMilestones(w, on, milestones, options.limits);
  const row = await w.tx.releasePlan.create({
    data: {
      id: randomUUID(),
      templateId,
      name: template.name,
      featureName: on.feature,
      projectId: on.project,
      environment: on.environment,
      milestones: milestones as unknown as Prisma.InputJsonValue,
      safeguards: safeguards as unknown as Prisma.InputJsonValue,
      createdAt: w.now,
      createdByUserId: w.actor.userId,
    },
  });
  const plan = planOf(row);
  await recordEvent(w, { ...placeOf(plan), type: "release-plan-added", data: planPayload(plan) });
  return options.start ? startMilestone(w, plan, 0, options.cause ?? "hand", options.limits) : plan;
}

/** Each milestone's strategies written and rolled back: what would refuse them refuses the plan. */
async function tryMilestones(
  w: Write,
  on: EnvironmentTarget,
  milestones: Milestone[],
  limits: ResourceLimits,
) {
  const recordedBefore = w.recorded.length;
  await sqlOf(w.tx).execute`SAVEPOINT release_plan_try`;
  try {
    for (const m of milestones) await replaceStrategies(w, on, strategyInputs(m), limits);
  } finally {
    await sqlOf(w.tx).execute`ROLLBACK TO SAVEPOINT release_plan_try`;
    w.recorded.length = recordedBefore;
  }
}

/** A milestone's strategies as strategy inputs (replaceStrategies checks them again). */
const strategyInputs = (m: Milestone) => m.strategies as NewStrategyInput[];

/**
 * The plan, locked, or 404; with `on`, only when it is the plan of that flag in that environment
 * and project (a change request names a plan by id, and applies to its own flag and environment).
 */
export async function lockPlanAt(w: Write, planId: string, on?: EnvironmentTarget): Promise<ReleasePlan> {
  const plan = await lockPlan(w.tx, planId);
  if (
    on &&
    (plan.featureName !== on.feature || plan.environment !== on.environment || plan.projectId !== on.project)
  ) {
    throw new NotFoundError(
      `Could not find release plan ${planId} of flag "${on.feature}" in the "${on.environment}" environment.`,
    );
  }
  return plan;
}

/** Removes a plan (release-plan-removed); the flag's strategies stay as they are. */
export async function removePlan(w: Write, planId: string, on?: EnvironmentTarget): Promise<ReleasePlan> {
  const plan = await lockPlanAt(w, planId, on);
  await w.tx.releasePlan.delete({ where: { id: planId } });
  await recordEvent(w, { ...placeOf(plan), type: "release-plan-removed", preData: planPayload(plan) });
  return plan;
}

/** Where a plan's events happen: its flag, project and environment. */
export const placeOf = (plan: ReleasePlan) => ({
  project: plan.projectId,
  environment: plan.environment,
  featureName: plan.featureName,
});

export const targetOf = (plan: ReleasePlan): EnvironmentTarget => ({
  project: plan.projectId,
  feature: plan.featureName,
  environment: plan.environment,
});

export type StartCause = (typeof MILESTONE_START_CAUSES)[number];

/**
 * Starts milestone `index` of a locked plan (release-plan-milestone-started): the environment's
 * strategies become the milestone's (feature-strategy-remove/-add each), the plan runs it from
 * now (a paused plan is resumed by starting a milestone by hand), and a step it proposed is no
 * longer awaited. Callers decide whether the environment lets it act (D-26: a person there needs
 * SKIP_CHANGE_REQUEST or an approved change request; a safeguard's rollback acts). Throws
 * NotFound (no such milestone).
 */
export async function startMilestone(
  w: Write,
  plan: ReleasePlan,
  index: number,
  cause: StartCause,
  limits: ResourceLimits,
): Promise<ReleasePlan> {
  const milestone = plan.milestones[index];
  if (!milestone) throw new NotFoundError(`The release plan has no milestone ${index + 1}.`);
  await replaceStrategies(w, targetOf(plan), strategyInputs(milestone), limits);
  const row = await w.tx.releasePlan.update({
    where: { id: plan.id },
    data: {
      activeIndex: index,
      milestoneStartedAt: w.now,
      state: "active",
      pausedAt: null,
      pauseReason: Prisma.DbNull,
      stepChangeRequestId: null,
      version: { increment: 1 },
    },
  });
  const started = planOf(row);
  await recordEvent(w, {
    ...placeOf(started),
    type: "release-plan-milestone-started",
    data: {
      planId: plan.id,
      milestoneId: milestone.id,
      milestoneName: milestone.name,
      index,
      cause,
      version: started.version,
    },
  });
  return started;
}

/**
 * Starts the milestone of a plan by their ids: by hand, or applying a change request (`on`: the
 * request's flag and environment, which the plan must be of).
 */
export async function startMilestoneById(
  w: Write,
  planId: string,
  milestoneId: string,
  limits: ResourceLimits,
  by: { cause: "hand" | "change-request"; on?: EnvironmentTarget } = { cause: "hand" },
) {
  const plan = await lockPlanAt(w, planId, by.on);
  const index = plan.milestones.findIndex((m) => m.id === milestoneId);
  if (index < 0) throw new NotFoundError(`The release plan has no milestone ${milestoneId}.`);
  await loadTarget(w, targetOf(plan));
  return startMilestone(w, plan, index, by.cause, limits);
}

/** Turns the plan's flag off in its environment (a safeguard's `disable`). */
export async function disablePlanFlag(w: Write, plan: ReleasePlan, limits: ResourceLimits): Promise<void> {
  await changeEnablement(w, targetOf(plan), { enabled: false }, limits);
}
