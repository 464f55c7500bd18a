import type { Milestone, ReleasePlan, Safeguard } from "./release-plan.types.ts";

const MINUTE_MS = 60_000;

/** The running milestone, or null before the first starts. */
export function activeMilestone(plan: Pick<ReleasePlan, "milestones" | "activeIndex">): Milestone | null {
  return plan.activeIndex === null ? null : (plan.milestones[plan.activeIndex] ?? null);
}

/** When the running milestone hands over to the next by itself; null: by hand, or the last one. */
export function nextMilestoneAt(plan: ReleasePlan): Date | null {
  const current = activeMilestone(plan);
  if (!current?.afterSeconds || !plan.milestoneStartedAt || plan.state !== "active") return null;
  if ((plan.activeIndex ?? 0) + 1 >= plan.milestones.length) return null;
  return new Date(plan.milestoneStartedAt.getTime() + current.afterSeconds * 1000);
}

/** The milestone to start now because its predecessor's time is up, or null. */
export function dueMilestoneIndex(plan: ReleasePlan, now: Date): number | null {
  const at = nextMilestoneAt(plan);
  return at && at.getTime() <= now.getTime() ? (plan.activeIndex ?? 0) + 1 : null;
}

/**
 * The minutes a safeguard reads: those overlapping its window (metrics are kept per minute), and
 * none before the running milestone's minute (what an earlier milestone did is not this one's).
 */
export function safeguardWindow(
  safeguard: Safeguard,
  now: Date,
  since: Date | null,
): { from: Date; to: Date } {
  const start = Math.max(now.getTime() - safeguard.windowSeconds * 1000, since?.getTime() ?? 0);
  return {
    from: new Date(Math.floor(start / MINUTE_MS) * MINUTE_MS),
    to: new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS + MINUTE_MS),
  };
}

/**
 * The window a `previousMilestone` baseline reads: as long as the safeguard's, just before the
 * running milestone started (whole minutes); null without a baseline or an earlier milestone.
 */
export function baselineWindow(
  safeguard: Safeguard,
  plan: { activeIndex: number | null; milestoneStartedAt: Date | null },
): { from: Date; to: Date } | null {
  if (safeguard.baseline !== "previousMilestone" || !plan.activeIndex || !plan.milestoneStartedAt)
    return null;
  const to = Math.floor(plan.milestoneStartedAt.getTime() / MINUTE_MS) * MINUTE_MS;
  return { from: new Date(to - Math.ceil(safeguard.windowSeconds / 60) * MINUTE_MS), to: new Date(to) };
}

/** Whether `value` trips the safeguard (no data never does). */
export function trips(safeguard: Safeguard, value: number | null): value is number {
  if (value === null) return false;
  return safeguard.operator === ">" ? value > safeguard.threshold : value < safeguard.threshold;
}

/**
 * Where a trip takes the plan: the previous milestone (the last one that ran without tripping),
 * or null to turn the flag off (asked for, or nothing ran before).
 */
export function rollbackIndex(plan: ReleasePlan, safeguard: Safeguard): number | null {
  if (safeguard.action === "disable" || !plan.activeIndex) return null;
  return plan.activeIndex - 1;
}
