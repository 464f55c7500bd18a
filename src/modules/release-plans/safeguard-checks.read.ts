import { randomUUID } from "node:crypto";
import type { Tx } from "../../db/database.ts";
import { ValidationError } from "../../shared/errors.ts";
import { parseInput } from "../../shared/validation.ts";
import { type ImpactMetricType, modeFits } from "../client-metrics/impact-metrics.logic.ts";
import { impactMetricType } from "../client-metrics/impact-metrics.read.ts";
import type { Safeguard } from "./release-plan.types.ts";
import { safeguardsInput } from "./release-plans.inputs.ts";

/**
 * Safeguards as stored: each names a metric SDKs report in the plan's environment, read in a way
 * its type has (percentiles need a histogram). A `flagOff` baseline compares two populations of
 * different sizes, so only a reading per observation can be compared: a histogram's `avg` or a
 * percentile, or a gauge's `avg` (a count, sum or rate grows with the population); the flag's label
 * is what splits them, so the safeguard's own selectors may not name it. Throws Validation naming
 * the input at fault.
 */
export async function checkedSafeguards(
  tx: Tx,
  at: { environment: string; feature: string },
  inputs: unknown,
): Promise<Safeguard[]> {
  const { environment } = at;
  const parsed = parseInput(safeguardsInput, inputs);
  const types: (ImpactMetricType | null)[] = [];
  for (const s of parsed) types.push(await impactMetricType(tx, s.metricName, environment)); // one transaction: in turn
  return parsed.map((s, i) => {
    const type = types[i];
    if (!type) {
      throw new ValidationError(
        `safeguards.${i}.metricName: no SDK reported an impact metric "${s.metricName}" in the "${environment}" environment`,
        [{ path: `safeguards.${i}.metricName`, message: `unknown impact metric "${s.metricName}"` }],
      );
    }
    if (!modeFits(type, s.aggregationMode)) {
      throw new ValidationError(
        `safeguards.${i}.aggregationMode: ${s.aggregationMode} needs a histogram; "${s.metricName}" is a ${type}`,
        [{ path: `safeguards.${i}.aggregationMode`, message: `${s.aggregationMode} needs a histogram` }],
      );
    }
    if (s.baseline === "flagOff") checkFlagOff(s, type, at.feature, i);
    return {
      id: randomUUID(),
      metricName: s.metricName,
      aggregationMode: s.aggregationMode,
      labelSelectors: s.labelSelectors ?? {},
      operator: s.operator,
      threshold: s.threshold,
      windowSeconds: s.windowSeconds,
      action: s.action ?? "rollback",
      baseline: s.baseline ?? "none",
    };
  });
}

/** Per observation: what a flag-off population of another size can be compared on. */
const COMPARABLE: Record<ImpactMetricType, readonly string[]> = {
  histogram: ["avg", "p50", "p95", "p99"],
  gauge: ["avg"],
  counter: [],
};

function checkFlagOff(
  s: { aggregationMode: string; labelSelectors?: Record<string, string[]> | null },
  type: ImpactMetricType,
  feature: string,
  i: number,
) {
  if (!COMPARABLE[type].includes(s.aggregationMode)) {
    const message = `a flagOff baseline compares populations of different sizes: read a histogram's avg or a percentile, or a gauge's avg (not the ${s.aggregationMode} of a ${type})`;
    throw new ValidationError(`safeguards.${i}.baseline: ${message}`, [
      { path: `safeguards.${i}.baseline`, message },
    ]);
  }
  if (s.labelSelectors && Object.hasOwn(s.labelSelectors, feature)) {
    const message = `a flagOff baseline splits the samples by the "${feature}" label itself: leave it out of labelSelectors`;
    throw new ValidationError(`safeguards.${i}.labelSelectors: ${message}`, [
      { path: `safeguards.${i}.labelSelectors`, message },
    ]);
  }
}
