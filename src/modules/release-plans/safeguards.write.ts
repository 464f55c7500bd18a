import type { ResourceLimits } from "../../config.ts";
import type { Tx } from "../../db/database.ts";
import { recordEvent } from "../../events/record.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import type { Write } from "../../shared/write.ts";
import { aggregate } from "../client-metrics/impact-metrics.logic.ts";
import { impactMetricRows, type LabelSelectors } from "../client-metrics/impact-metrics.read.ts";
import type { ReleasePlan, Safeguard } from "./release-plan.types.ts";
import { baselineWindow, rollbackIndex, safeguardWindow, trips } from "./release-plans.logic.ts";
import { lockPlan, planOf } from "./release-plans.read.ts";
import { disablePlanFlag, placeOf, startMilestone } from "./release-plans.write.ts";
import { checkedSafeguards } from "./safeguard-checks.read.ts";

/** Replaces a plan's safeguards (safeguard-changed). */
export async function setSafeguards(w: Write, planId: string, inputs: unknown): Promise<ReleasePlan> {
  const plan = await lockPlan(w.tx, planId);
  const safeguards = await checkedSafeguards(
    w.tx,
    { environment: plan.environment, feature: plan.featureName },
    inputs,
  );
  const row = await w.tx.releasePlan.update({
    where: { id: planId },
    data: { safeguards: safeguards as unknown as Prisma.InputJsonValue, version: { increment: 1 } },
  });
  await recordEvent(w, {
    ...placeOf(plan),
    type: "safeguard-changed",
    data: { planId, safeguards },
    preData: { planId, safeguards: plan.safeguards },
  });
  return planOf(row);
}

/** Pauses a running plan (release-plan-progressions-paused): it neither moves on nor is watched. */
export async function pausePlan(w: Write, planId: string): Promise<ReleasePlan> {
  const plan = await lockPlan(w.tx, planId);
  if (plan.state === "paused") return plan;
  const row = await w.tx.releasePlan.update({
    where: { id: planId },
    data: { state: "paused", pausedAt: w.now, version: { increment: 1 } },
  });
  const paused = planOf(row);
  await recordEvent(w, {
    ...placeOf(paused),
    type: "release-plan-progressions-paused",
    data: { planId, version: paused.version, reason: null },
  });
  return paused;
}

/**
 * Resumes a paused plan (release-plan-progressions-resumed): the running milestone counts its
 * time, and its safeguards their window, from now.
 */
export async function resumePlan(w: Write, planId: string): Promise<ReleasePlan> {
  const plan = await lockPlan(w.tx, planId);
  if (plan.state === "active") return plan;
  const row = await w.tx.releasePlan.update({
    where: { id: planId },
    data: {
      state: "active",
      pausedAt: null,
      pauseReason: Prisma.DbNull,
      milestoneStartedAt: plan.activeIndex === null ? null : w.now,
      version: { increment: 1 },
    },
  });
  const resumed = planOf(row);
  await recordEvent(w, {
    ...placeOf(resumed),
    type: "release-plan-progressions-resumed",
    data: { planId, version: resumed.version },
  });
  return resumed;
}

/**
 * A safeguard's reading: the metric over its window, aggregated; with a `previousMilestone`
 * baseline, its rise over the same window just before the running milestone started; with a
 * `flagOff` baseline, how far the samples of users who get the flag (labelled with it, not
 * `disabled`) are above those of users who do not (`disabled`), over the window. Null, so no
 * trip, while either side has no data or no milestone ran before.
 */
export async function readSafeguard(tx: Tx, plan: ReleasePlan, safeguard: Safeguard, now: Date) {
  const window = safeguardWindow(safeguard, now, plan.milestoneStartedAt);
  if (safeguard.baseline === "flagOff") {
    const off = { [plan.featureName]: [FLAG_OFF] };
    const current = await aggregateOver(tx, plan, safeguard, { ...window, excluded: off });
    const baseline = await aggregateOver(tx, plan, safeguard, { ...window, labels: off });
    const value = current === null || baseline === null ? null : current - baseline;
    return { ...window, value, current, baseline };
  }
  const current = await aggregateOver(tx, plan, safeguard, window);
  if (safeguard.baseline !== "previousMilestone")
    return { ...window, value: current, current, baseline: null };
  const before = baselineWindow(safeguard, plan);
  if (!before) return { ...window, value: null, current, baseline: null };
  const baseline = await aggregateOver(tx, plan, safeguard, before);
  const value = current === null || baseline === null ? null : current - baseline;
  return { ...window, value, current, baseline };
}

/** The label value unleash-client gives a sample of a user who gets the flag off. */
const FLAG_OFF = "disabled";

/** The safeguard's metric over `window`, its own selectors and the window's (a population) both. */
async function aggregateOver(
  tx: Tx,
  plan: ReleasePlan,
  safeguard: Safeguard,
  window: { from: Date; to: Date; labels?: LabelSelectors; excluded?: LabelSelectors },
) {
  const rows = await impactMetricRows(tx, {
    name: safeguard.metricName,
    environment: plan.environment,
    from: window.from,
    to: window.to,
    labels: { ...safeguard.labelSelectors, ...window.labels },
    excluded: window.excluded,
  });
  return aggregate(rows, safeguard.aggregationMode, safeguard.windowSeconds);
}

/**
 * The first safeguard of a locked, running plan that trips, acted on: safeguard-triggered with
 * its numbers, the flag back to the previous milestone's strategies (or off), the plan paused
 * (release-plan-progressions-paused, the reason the trip). Where change requests are required it
 * acts all the same (D-26: a safety action, back to strategies reviewed with the plan, or off);
 * a step the plan proposed is no longer awaited (the request now conflicts). Null when none trips.
 */
export async function tripFirstSafeguard(w: Write, plan: ReleasePlan, limits: ResourceLimits) {
  for (const safeguard of plan.safeguards) {
    const reading = await readSafeguard(w.tx, plan, safeguard, w.now);
    if (!trips(safeguard, reading.value)) continue;
    const back = rollbackIndex(plan, safeguard);
    const rolledBack = back === null ? plan : await startMilestone(w, plan, back, "rollback", limits);
    if (back === null) await disablePlanFlag(w, plan, limits);
    const trippedMilestoneId = plan.milestones[plan.activeIndex ?? 0]?.id ?? null;
    const numbers = {
      planId: plan.id,
      safeguard,
      value: reading.value,
      current: reading.current,
      baseline: reading.baseline,
      from: reading.from.toISOString(),
      to: reading.to.toISOString(),
      trippedMilestoneId,
      rolledBackToMilestoneId: back === null ? null : (plan.milestones[back]?.id ?? null),
    };
    const row = await w.tx.releasePlan.update({
      where: { id: plan.id },
      data: {
        state: "paused",
        pausedAt: w.now,
        pauseReason: numbers,
        stepChangeRequestId: null,
        version: { increment: 1 },
      },
    });
    const paused = planOf(row);
    await recordEvent(w, {
      ...placeOf(paused),
      type: "safeguard-triggered",
      data: { ...numbers, version: paused.version },
    });
    const reason = `${safeguard.metricName} ${safeguard.aggregationMode}${comparison(safeguard, reading.value, reading)} ${safeguard.operator} ${safeguard.threshold}`;
    await recordEvent(w, {
      ...placeOf(paused),
      type: "release-plan-progressions-paused",
      data: { planId: plan.id, version: paused.version, reason: `safeguard tripped: ${reason}` },
    });
    return { plan: paused, rolledBack, value: reading.value };
  }
  return null;
}

/** The reading as a trip's reason says it: the value, and what it was compared with. */
function comparison(
  safeguard: Safeguard,
  value: number,
  reading: { current: number | null; baseline: number | null },
): string {
  if (reading.baseline === null) return ` ${value}`;
  if (safeguard.baseline === "flagOff") {
    return ` above the flag-off population ${value} (${reading.current} with the flag, ${reading.baseline} without)`;
  }
  return ` rise ${value} (${reading.current} now, ${reading.baseline} before the milestone)`;
}
