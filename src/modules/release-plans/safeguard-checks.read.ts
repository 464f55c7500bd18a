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
 * its type has (percentiles need a histogram). Throws Validation naming the input at fault.
 */
export async function checkedSafeguards(tx: Tx, environment: string, inputs: unknown): Promise<Safeguard[]> {
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
