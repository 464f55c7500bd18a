import type { ResourceLimits } from "../../config.ts";
import { ValidationError } from "../../shared/errors.ts";
import { applyJsonPatch } from "../../shared/json-patch.ts";
import type { Write } from "../../shared/write.ts";
import { changeEnablement } from "./enablement.write.ts";
import { setEnvironmentVariants } from "./environment-variants.write.ts";
import { lockFeatures } from "./feature-lock.read.ts";
import { updateStrategy } from "./strategies.write.ts";
import type { StrategyUpdateInput, VariantInput } from "./strategy.inputs.ts";
import type { EnvironmentVariant } from "./strategy.types.ts";
import { type EnvironmentTarget, loadTarget, strategyIn, strategyRecord } from "./strategy-record.read.ts";

/**
 * Turns several flags of a project on or off in one environment, all or nothing (reference §4,
 * bulk): each flag as the single on/off does it, with its own feature-environment-enabled or
 * -disabled event when its state flips. The flags are locked in name order first, so two bulk
 * calls over overlapping sets cannot deadlock. Errors: NotFound (any name), Archived.
 */
export async function setFeaturesEnabled(
  w: Write,
  target: { project: string; environment: string },
  names: string[],
  enabled: boolean,
  options: { shouldActivateDisabledStrategies?: boolean },
  limits: ResourceLimits,
) {
  const features = await lockFeatures(w.tx, target.project, names);
  for (const feature of features) {
    const one = { ...target, feature: feature.name };
    await changeEnablement(w, one, { enabled, ...options }, limits);
  }
  return features.map((f) => f.name);
}

/**
 * Applies a JSON Patch (RFC 6902) to a strategy as the REST API shows it (spec 2.6: name,
 * title, disabled, sortOrder, parameters, constraints, variants, segments) and stores the
 * result as `updateStrategy` does (feature-strategy-update; the environment turns off when no
 * enabled strategy remains). Errors: NotFound, Archived, Validation (patch or result).
 */
export async function patchStrategy(
  w: Write,
  target: EnvironmentTarget,
  id: string,
  operations: unknown,
  limits: ResourceLimits,
) {
  await loadTarget(w, target);
  const { id: _id, ...current } = strategyRecord(await strategyIn(w.tx, target, id));
  const patched = applyJsonPatch(current, operations);
  return updateStrategy(w, target, id, patched as StrategyUpdateInput, limits);
}

/**
 * Applies a JSON Patch to a flag's variants in one environment (the variant list, spec 2.5)
 * and stores the result as `setEnvironmentVariants` does (weights rebalanced;
 * feature-environment-variants-updated unless unchanged). Returns the stored variants.
 */
export async function patchEnvironmentVariants(w: Write, target: EnvironmentTarget, operations: unknown) {
  const { environment } = await loadTarget(w, target);
  const patched = applyJsonPatch(environment.variants as EnvironmentVariant[], operations);
  if (!Array.isArray(patched)) throw new ValidationError("The patched variants must be a list.");
  return setEnvironmentVariants(w, target, patched as VariantInput[]);
}

/**
 * Writes the same variants to several environments of a flag (Unleash's variants-batch), one
 * feature-environment-variants-updated per environment that changes. Errors: NotFound (flag,
 * any environment), Archived, Validation.
 */
export async function setVariantsInEnvironments(
  w: Write,
  target: { project: string; feature: string },
  environments: string[],
  variants: VariantInput[],
) {
  const results: EnvironmentVariant[][] = [];
  for (const environment of [...new Set(environments)]) {
    results.push(await setEnvironmentVariants(w, { ...target, environment }, variants));
  }
  return results;
}
