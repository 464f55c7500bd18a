import { isDeepStrictEqual } from "node:util";
import type { ChangeAction } from "../change-requests/change-request.inputs.ts";
import type { PastEnvironment, PastStrategy } from "./flag-state.logic.ts";

/** One change of a restore, in the change-request form (so it can be proposed or applied as is). */
export type PlannedChange = { action: ChangeAction; feature: string; payload: unknown };

/** A past strategy as a change's payload: every field of its record but the id. */
function strategyFields(s: PastStrategy) {
  const { id: _id, ...fields } = s;
  return fields;
}

/**
 * The changes that make `current` (the flag's state in one environment now; null when it has
 * none there) equal to `past`: strategies kept by id are updated, missing ones added again
 * (with a new id), extra ones deleted, in that order so that an environment to stay on never
 * runs out of enabled strategies; then the variants; then on/off. Nothing when they are equal.
 */
export function environmentPlan(
  feature: string,
  past: PastEnvironment,
  current: PastEnvironment,
): PlannedChange[] {
  const plan: PlannedChange[] = [];
  const now = new Map(current.strategies.map((s) => [s.id, s]));
  const kept = new Set(past.strategies.map((s) => s.id));
  for (const strategy of past.strategies) {
    const existing = now.get(strategy.id);
    if (!existing) {
      plan.push({ action: "addStrategy", feature, payload: strategyFields(strategy) });
    } else if (!isDeepStrictEqual(existing, strategy)) {
      plan.push({
        action: "updateStrategy",
        feature,
        payload: { id: strategy.id, ...strategyFields(strategy) },
      });
    }
  }
  for (const strategy of current.strategies) {
    if (!kept.has(strategy.id))
      plan.push({ action: "deleteStrategy", feature, payload: { id: strategy.id } });
  }
  if (!isDeepStrictEqual(past.variants, current.variants)) {
    plan.push({ action: "patchVariant", feature, payload: { variants: past.variants } });
  }
  // Changing strategies can turn the environment off on the way (none enabled left): say on/off last.
  if (past.enabled !== current.enabled || (past.enabled && plan.length > 0)) {
    plan.push({ action: "updateEnabled", feature, payload: { enabled: past.enabled } });
  }
  return plan;
}

/** The segment ids the past strategies use (to check they still exist). */
export function segmentsOf(environments: PastEnvironment[]): number[] {
  return [...new Set(environments.flatMap((e) => e.strategies.flatMap((s) => s.segments)))].sort(
    (a, b) => a - b,
  );
}
