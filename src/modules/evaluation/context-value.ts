import type { EvaluationContext } from "./client-features.types.ts";

/** A context field as the SDKs read it: top level first, then `properties`; always a string. */
export function contextValue(context: EvaluationContext, field: string): string | undefined {
  const value = context[field] ?? context.properties?.[field];
  if (value === undefined || value === null) return undefined;
  return value instanceof Date ? value.toISOString() : String(value);
}
