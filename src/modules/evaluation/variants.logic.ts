import type { ClientVariant, EvaluationContext, VariantPayload } from "./client-features.types.ts";
import { contextValue } from "./context-value.logic.ts";
import { variantBucket } from "./hashing.logic.ts";

/** How a variant was chosen, for the playground. */
export type VariantRule =
  | { kind: "override"; contextName: string; contextValue: string }
  | { kind: "weight"; stickiness: string; bucket: number; totalWeight: number };

export type ChosenVariant = { name: string; payload?: VariantPayload; rule: VariantRule };

const STICKY_FIELDS = ["userId", "sessionId", "remoteAddress"] as const;

function stickinessValue(context: EvaluationContext, stickiness: string, random: () => string): string {
  if (stickiness !== "default") return contextValue(context, stickiness) ?? random();
  for (const field of STICKY_FIELDS) {
    const v = context[field];
    if (typeof v === "string" && v !== "") return v;
  }
  return random();
}

function override(variants: ClientVariant[], context: EvaluationContext): ChosenVariant | null {
  for (const variant of variants) {
    for (const o of variant.overrides ?? []) {
      const value = contextValue(context, o.contextName);
      if (value !== undefined && o.values.includes(value)) {
        return {
          name: variant.name,
          payload: variant.payload,
          rule: { kind: "override", contextName: o.contextName, contextValue: value },
        };
      }
    }
  }
  return null;
}

/**
 * Picks a variant as the SDKs do: an override matching the context wins; else the stickiness
 * value (the first variant's, else `fallbackStickiness`) is hashed with `groupId` into the
 * weights. Null when the weights add up to nothing.
 */
export function selectVariant(
  groupId: string,
  fallbackStickiness: string | undefined,
  variants: ClientVariant[],
  context: EvaluationContext,
  random: () => string,
): ChosenVariant | null {
  const totalWeight = variants.reduce((sum, v) => sum + v.weight, 0);
  if (totalWeight <= 0) return null;
  const overridden = override(variants, context);
  if (overridden) return overridden;
  const stickiness = variants[0]?.stickiness || fallbackStickiness || "default";
  const bucket = variantBucket(stickinessValue(context, stickiness, random), groupId, totalWeight);
  let counter = 0;
  for (const v of variants) {
    if (v.weight === 0) continue;
    counter += v.weight;
    if (counter >= bucket) {
      return { name: v.name, payload: v.payload, rule: { kind: "weight", stickiness, bucket, totalWeight } };
    }
  }
  return null;
}
