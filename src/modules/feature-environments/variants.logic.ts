import { ValidationError } from "../../shared/errors.ts";
import { type VariantInput, variantSchema } from "./strategy.inputs.ts";
import type { EnvironmentVariant, StrategyVariant } from "./strategy.types.ts";
import { sharedWeights, TOTAL_WEIGHT } from "./variant-weights.logic.ts";

/**
 * Validates strategy-level variants (spec 2.4) and returns them with weights rebalanced.
 * Strategy variants have no overrides.
 */
export function normalizeStrategyVariants(inputs: VariantInput[], path = "variants"): StrategyVariant[] {
  const variants = parseVariants(inputs, path);
  variants.forEach((v, i) => {
    if (v.overrides?.length) fail(`${path}.${i}.overrides`, "strategy variants have no overrides");
  });
  return rebalance(variants, path).map(({ overrides: _o, ...v }) => v);
}

/** Validates feature-environment variants (spec 2.5) and returns them with weights rebalanced. */
export function normalizeEnvironmentVariants(
  inputs: VariantInput[],
  path = "variants",
): EnvironmentVariant[] {
  return rebalance(parseVariants(inputs, path), path).map((v) => ({ ...v, overrides: v.overrides ?? [] }));
}

type ParsedVariant = StrategyVariant & { overrides?: { contextName: string; values: string[] }[] };

function parseVariants(inputs: VariantInput[], path: string): ParsedVariant[] {
  const seen = new Set<string>();
  return inputs.map((input, i) => {
    const parsed = variantSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      fail([path, i, ...(issue?.path ?? [])].join("."), issue?.message ?? "invalid variant");
    }
    const v = parsed.data;
    if (seen.has(v.name)) fail(`${path}.${i}.name`, `variant names must be unique; "${v.name}" is repeated`);
    seen.add(v.name);
    if (v.payload) checkPayload(v.payload, `${path}.${i}.payload.value`);
    const weightType = v.weightType ?? "variable";
    if (weightType === "fix" && (v.weight === null || v.weight === undefined)) {
      fail(`${path}.${i}.weight`, "a fix variant needs a weight");
    }
    // Whole units keep the shares exact: the rest is split without rounding drift.
    if (weightType === "fix" && !Number.isInteger(v.weight)) {
      fail(`${path}.${i}.weight`, "a fix weight is a whole number of units out of 1000");
    }
    return {
      name: v.name,
      weight: v.weight ?? 0,
      weightType,
      stickiness: v.stickiness ?? "default",
      ...(v.payload ? { payload: v.payload } : {}),
      ...(v.overrides ? { overrides: v.overrides } : {}),
    };
  });
}

function checkPayload(payload: { type: string; value: string }, path: string) {
  if (payload.type === "json") {
    try {
      JSON.parse(payload.value);
    } catch {
      fail(path, "a json payload must be valid JSON");
    }
  }
  if (payload.type === "number" && (payload.value.trim() === "" || !Number.isFinite(Number(payload.value)))) {
    fail(path, "a number payload must be a number");
  }
}

/**
 * The weights as stored (sharedWeights, the rule the UI shows too). Fix weights over 1000 (or,
 * with no variable variant, not exactly 1000) are refused.
 */
function rebalance<V extends ParsedVariant>(variants: V[], path: string): V[] {
  if (variants.length === 0) return [];
  const fixTotal = variants.filter((v) => v.weightType === "fix").reduce((sum, v) => sum + v.weight, 0);
  const variable = variants.filter((v) => v.weightType === "variable");
  if (fixTotal > TOTAL_WEIGHT) {
    fail(path, `the fix weights add up to ${fixTotal}, more than the total of ${TOTAL_WEIGHT}`);
  }
  if (variable.length === 0) {
    if (fixTotal !== TOTAL_WEIGHT) {
      fail(path, `with only fix variants the weights must add up to ${TOTAL_WEIGHT}, not ${fixTotal}`);
    }
    return variants;
  }
  const weights = sharedWeights(variants);
  return variants.map((v, i) => ({ ...v, weight: weights[i] ?? v.weight }));
}

function fail(path: string, message: string): never {
  throw new ValidationError(`${path}: ${message}`, [{ path, message: `${path}: ${message}` }]);
}
