import { isDeepStrictEqual } from "node:util";
import type { Tx } from "../../db/database.ts";
import type { ChangeKind, ChangeTarget } from "../../shared/change-kinds.ts";
import { NotFoundError } from "../../shared/errors.ts";
import type { ReleasePlanAction } from "../change-requests/change-request.inputs.ts";
import type { EnvironmentTarget } from "../feature-environments/strategy-record.read.ts";
import { activeMilestone } from "./release-plans.logic.ts";
import { planOfFlag, plansById, templatesById } from "./release-plans.read.ts";
import { applyTemplate, removePlan, startMilestoneById } from "./release-plans.write.ts";

// Unleash's change kinds of release plans (D-26), as the change-requests module proposes, checks
// and applies them: `addReleasePlan` {templateId, safeguards?, start?}, `deleteReleasePlan`
// {planId}, `startMilestone` {planId, milestoneId}. Given to it by the app (src/change-kinds.ts).

type AddPayload = { templateId: string; safeguards?: unknown[]; start?: boolean };
type PlanPayload = { planId: string; milestoneId?: string };

function onFlag(target: ChangeTarget): EnvironmentTarget {
  if (!target.feature) throw new Error("a release plan change without a flag reached its kind");
  return { project: target.project, environment: target.environment, feature: target.feature };
}

/** The plan a change names, when it is the plan of the change's flag in its environment; else 404. */
async function namedPlan(tx: Tx, target: ChangeTarget, planId: string) {
  const [plan] = await plansById(tx, [planId]);
  if (
    !plan ||
    plan.featureName !== target.feature ||
    plan.environment !== target.environment ||
    plan.projectId !== target.project
  ) {
    throw new NotFoundError(
      `Could not find release plan ${planId} of flag "${target.feature}" in "${target.environment}"`,
    );
  }
  return plan;
}

/** Where a plan stands, as a milestone start is proposed from there (null: the plan is gone). */
async function planStanding(tx: Tx, planId: string) {
  const [plan] = await plansById(tx, [planId]);
  return plan ? { activeMilestoneId: activeMilestone(plan)?.id ?? null, state: plan.state } : null;
}

const GONE = "The release plan has been removed.";

const nothingKept = async () => null;

const addReleasePlan: ChangeKind = {
  apply: async (w, target, payload, limits) => {
    const p = payload as AddPayload;
    await applyTemplate(w, onFlag(target), p.templateId, {
      safeguards: p.safeguards ?? [],
      start: p.start ?? false,
      limits,
      cause: "change-request",
    });
  },
  checkReferences: async (tx, _target, payload) => {
    const { templateId } = payload as AddPayload;
    const [template] = await templatesById(tx, [templateId]);
    if (!template) throw new NotFoundError(`Could not find release template ${templateId}`);
  },
  snapshot: nothingKept,
  conflict: async (tx, target, payload) => {
    const { templateId } = payload as AddPayload;
    if (target.feature && (await planOfFlag(tx, target.feature, target.environment))) {
      return `The flag "${target.feature}" already has a release plan in the "${target.environment}" environment.`;
    }
    const [template] = await templatesById(tx, [templateId]);
    if (!template) return `The release template ${templateId} has been deleted.`;
    if (template.archivedAt) return `The release template "${template.name}" has been archived.`;
    return null;
  },
};

const deleteReleasePlan: ChangeKind = {
  apply: async (w, target, payload) => {
    await removePlan(w, (payload as PlanPayload).planId, onFlag(target));
  },
  checkReferences: async (tx, target, payload) => {
    await namedPlan(tx, target, (payload as PlanPayload).planId);
  },
  snapshot: nothingKept,
  conflict: async (tx, _target, payload) =>
    (await planStanding(tx, (payload as PlanPayload).planId)) ? null : GONE,
};

/**
 * A milestone start is proposed from where the plan stands (its running milestone, active or
 * paused); once the plan stands elsewhere (another milestone started, a safeguard tripped, a
 * pause) the start conflicts until it stands there again.
 */
const startMilestone: ChangeKind = {
  apply: async (w, target, payload, limits) => {
    const p = payload as Required<PlanPayload>;
    await startMilestoneById(w, p.planId, p.milestoneId, limits, {
      cause: "change-request",
      on: onFlag(target),
    });
  },
  checkReferences: async (tx, target, payload) => {
    const p = payload as Required<PlanPayload>;
    const plan = await namedPlan(tx, target, p.planId);
    if (!plan.milestones.some((m) => m.id === p.milestoneId)) {
      throw new NotFoundError(`The release plan ${plan.id} has no milestone ${p.milestoneId}`);
    }
  },
  snapshot: (tx, _target, payload) => planStanding(tx, (payload as PlanPayload).planId),
  conflict: async (tx, _target, payload, snapshot) => {
    const now = await planStanding(tx, (payload as PlanPayload).planId);
    if (!now) return GONE;
    if (snapshot === null || snapshot === undefined || isDeepStrictEqual(snapshot, now)) return null;
    return "The release plan has moved on since this change was proposed (another milestone started, a safeguard tripped, or it was paused).";
  },
};

export const RELEASE_PLAN_CHANGE_KINDS: Record<ReleasePlanAction, ChangeKind> = {
  addReleasePlan,
  deleteReleasePlan,
  startMilestone,
};
