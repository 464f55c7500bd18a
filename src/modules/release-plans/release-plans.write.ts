import { randomUUID } from "node:crypto";
import type { ResourceLimits } from "../../config.ts";
import type { Tx } from "../../db/database.ts";
import { recordEvent } from "../../events/record.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { ConflictError, InvalidOperationError, NotFoundError } from "../../shared/errors.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { changeEnablement } from "../feature-environments/enablement.write.ts";
import { changeRequestSetting } from "../feature-environments/guards.read.ts";
import type { NewStrategyInput } from "../feature-environments/strategy.inputs.ts";
import { type EnvironmentTarget, loadTarget } from "../feature-environments/strategy-record.read.ts";
import { replaceStrategies } from "../feature-environments/strategy-replace.write.ts";
import type { Milestone, ReleasePlan, ReleaseTemplate } from "./release-plan.types.ts";
import { templateInput } from "./release-plans.inputs.ts";
import { lockPlan, planOf, templateOf } from "./release-plans.read.ts";
import { checkedSafeguards } from "./safeguard-checks.read.ts";

/** A template as events carry it. */
export const templatePayload = (t: ReleaseTemplate) => ({
  id: t.id,
  name: t.name,
  description: t.description,
  milestones: t.milestones,
});

/** A plan as events carry it. */
export const planPayload = (p: ReleasePlan) => ({
  id: p.id,
  templateId: p.templateId,
  name: p.name,
  milestones: p.milestones,
  safeguards: p.safeguards,
});

/** Creates a template (release-plan-template-created). Throws Validation, NameExists (409). */
export async function createTemplate(w: Write, input: unknown): Promise<ReleaseTemplate> {
  const parsed = parseInput(templateInput, input);
  const milestones: Milestone[] = parsed.milestones.map((m) => ({
    id: randomUUID(),
    name: m.name,
    afterSeconds: m.afterSeconds ?? null,
    strategies: m.strategies.map((s) => ({
      name: s.name,
      title: s.title ?? null,
      disabled: s.disabled ?? false,
      parameters: s.parameters ?? {},
      constraints: (s.constraints ?? []) as Record<string, unknown>[],
      variants: (s.variants ?? []) as Record<string, unknown>[],
      segments: s.segments ?? [],
    })),
  }));
  const row = await w.tx.releasePlanTemplate.create({
    data: {
      id: randomUUID(),
      name: parsed.name,
      description: parsed.description ?? null,
      milestones: milestones as unknown as Prisma.InputJsonValue,
      createdAt: w.now,
      createdByUserId: w.actor.userId,
    },
  });
  const template = templateOf(row);
  await recordEvent(w, { type: "release-plan-template-created", data: templatePayload(template) });
  return template;
}

/** Archives a template (release-plan-template-archived): no new plans from it; plans made keep theirs. */
export async function archiveTemplate(w: Write, id: string): Promise<ReleaseTemplate> {
  const row = await w.tx.releasePlanTemplate.findUnique({ where: { id } });
  if (!row) throw new NotFoundError(`Could not find release template ${id}`);
  if (row.archivedAt) return templateOf(row);
  const archived = templateOf(
    await w.tx.releasePlanTemplate.update({ where: { id }, data: { archivedAt: w.now } }),
  );
  await recordEvent(w, { type: "release-plan-template-archived", preData: templatePayload(archived) });
  return archived;
}

/**
 * Release plans change strategies by themselves, which a change request would have to review:
 * in an environment that requires change requests they are refused (D-26).
 */
async function assertUnprotected(tx: Tx, project: string, environment: string): Promise<void> {
  if (!(await changeRequestSetting(tx, project, environment))) return;
  throw new InvalidOperationError(
    `The "${environment}" environment of project "${project}" requires change requests: release plans, which change strategies by themselves, cannot run there.`,
  );
}

/**
 * Applies a template to a flag in one environment (release-plan-added): a plan with the
 * template's milestones, and `safeguards`. Every milestone is tried first, in a savepoint rolled
 * back (strategy types, constraints, segments, limits), so a plan that could not run is refused
 * whole. With `start`, the first milestone starts at once. Throws NotFound, Archived (the flag),
 * InvalidOperation (protected environment, archived template), Conflict (a plan exists), Validation.
 */
export async function applyTemplate(
  w: Write,
  on: EnvironmentTarget,
  templateId: string,
  options: { safeguards: unknown; start: boolean; limits: ResourceLimits },
): Promise<ReleasePlan> {
  await loadTarget(w, on);
  await assertUnprotected(w.tx, on.project, on.environment);
  const template = await w.tx.releasePlanTemplate.findUnique({ where: { id: templateId } });
  if (!template) throw new NotFoundError(`Could not find release template ${templateId}`);
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
  const safeguards = await checkedSafeguards(w.tx, on.environment, options.safeguards);
  const milestones = templateOf(template).milestones;
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
  return options.start ? startMilestone(w, plan, 0, "hand", options.limits) : plan;
}

/** Each milestone's strategies written and rolled back: what would refuse them refuses the plan. */
async function tryMilestones(
  w: Write,
  on: EnvironmentTarget,
  milestones: Milestone[],
  limits: ResourceLimits,
) {
  const recordedBefore = w.recorded.length;
  await w.tx.$executeRawUnsafe("SAVEPOINT release_plan_try");
  try {
    for (const m of milestones) await replaceStrategies(w, on, strategyInputs(m), limits);
  } finally {
    await w.tx.$executeRawUnsafe("ROLLBACK TO SAVEPOINT release_plan_try");
    w.recorded.length = recordedBefore;
  }
}

/** A milestone's strategies as strategy inputs (replaceStrategies checks them again). */
const strategyInputs = (m: Milestone) => m.strategies as NewStrategyInput[];

/** Removes a plan (release-plan-removed); the flag's strategies stay as they are. */
export async function removePlan(w: Write, planId: string): Promise<ReleasePlan> {
  const plan = await lockPlan(w.tx, planId);
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

/**
 * Starts milestone `index` of a locked plan (release-plan-milestone-started): the environment's
 * strategies become the milestone's (feature-strategy-remove/-add each), the plan runs it from
 * now (a paused plan is resumed by starting a milestone by hand). Throws NotFound (no such
 * milestone), InvalidOperation (protected environment).
 */
export async function startMilestone(
  w: Write,
  plan: ReleasePlan,
  index: number,
  cause: "hand" | "schedule" | "rollback",
  limits: ResourceLimits,
): Promise<ReleasePlan> {
  const milestone = plan.milestones[index];
  if (!milestone) throw new NotFoundError(`The release plan has no milestone ${index + 1}.`);
  await assertUnprotected(w.tx, plan.projectId, plan.environment);
  await replaceStrategies(w, targetOf(plan), strategyInputs(milestone), limits);
  const row = await w.tx.releasePlan.update({
    where: { id: plan.id },
    data: {
      activeIndex: index,
      milestoneStartedAt: w.now,
      state: "active",
      pausedAt: null,
      pauseReason: Prisma.DbNull,
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

/** Starts the milestone of a plan by its id, by hand. */
export async function startMilestoneById(
  w: Write,
  planId: string,
  milestoneId: string,
  limits: ResourceLimits,
) {
  const plan = await lockPlan(w.tx, planId);
  const index = plan.milestones.findIndex((m) => m.id === milestoneId);
  if (index < 0) throw new NotFoundError(`The release plan has no milestone ${milestoneId}.`);
  await loadTarget(w, targetOf(plan));
  return startMilestone(w, plan, index, "hand", limits);
}

/** Turns the plan's flag off in its environment (a safeguard's `disable`). */
export async function disablePlanFlag(w: Write, plan: ReleasePlan, limits: ResourceLimits): Promise<void> {
  await changeEnablement(w, targetOf(plan), { enabled: false }, limits);
}
