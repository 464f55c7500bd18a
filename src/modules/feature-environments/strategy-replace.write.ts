import { isDeepStrictEqual } from "node:util";
import type { ResourceLimits } from "../../config.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { normalizeConstraints } from "./constraints.logic.ts";
import { insertStrategy, normalizeParameters, removeStrategy } from "./strategies.write.ts";
import { type NewStrategyInput, newStrategySchema } from "./strategy.inputs.ts";
import { type EnvironmentTarget, loadTarget, strategiesOf, strategyRecord } from "./strategy-record.read.ts";
import { normalizeStrategyVariants } from "./variants.logic.ts";

/**
 * Makes the strategies of a flag in one environment exactly `inputs` (in that order; each one's
 * `sortOrder` given, else its position), as an import does. When the normalized list equals
 * the stored one (ids aside) nothing is written or recorded; otherwise every stored strategy is
 * removed (feature-strategy-remove each) and the new ones added (feature-strategy-add each),
 * with the validation of adding one (constraints, legal values, segments, limits). Unlike a
 * single removal it leaves the environment's on/off state alone: the caller sets it after.
 * Throws NotFound, Archived, Validation, LimitExceeded.
 */
export async function replaceStrategies(
  w: Write,
  target: EnvironmentTarget,
  inputs: NewStrategyInput[],
  limits: ResourceLimits,
): Promise<boolean> {
  await loadTarget(w, target);
  const parsed = inputs.map((input, i) => {
    const data = parseInput(newStrategySchema, input);
    return { ...data, sortOrder: data.sortOrder ?? i };
  });
  const stored = await strategiesOf(w.tx, target.feature, target.environment);
  if (sameStrategies(stored.map(strategyRecord), parsed, target.feature, limits)) return false;
  for (const before of stored) await removeStrategy(w, target, before);
  for (const data of parsed) await insertStrategy(w, target, data, limits);
  return true;
}

type Parsed = ReturnType<typeof parseInput<typeof newStrategySchema>> & { sortOrder: number };

/** Whether storing `wanted` would give `stored` again (a failed normalization: not the same). */
function sameStrategies(
  stored: ReturnType<typeof strategyRecord>[],
  wanted: Parsed[],
  feature: string,
  limits: ResourceLimits,
): boolean {
  if (stored.length !== wanted.length) return false;
  try {
    return wanted.every((w, i) => {
      const s = stored[i];
      if (!s) return false;
      const { id: _id, ...current } = s;
      return isDeepStrictEqual(
        current,
        asStored({
          name: w.name,
          title: w.title ?? null,
          disabled: w.disabled ?? false,
          constraints: normalizeConstraints(w.constraints ?? [], [], limits),
          parameters: normalizeParameters(w.name, w.parameters ?? {}, feature),
          segments: [...new Set(w.segments ?? [])].sort((a, b) => a - b),
          sortOrder: w.sortOrder,
          variants: normalizeStrategyVariants(w.variants ?? []),
        }),
      );
    });
  } catch {
    return false;
  }
}

/** What a value looks like once stored as JSON (undefined keys gone). */
function asStored<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
