import type { EvaluationContext } from "./client-features.types.ts";

/** A context field as the SDKs read it: top level first, then `properties`; always a string. */
export function contextValue(context: EvaluationContext, field: string): string | undefined {
  const value = context[field] ?? context.properties?.[field];
  if (value === undefined || value === null) return undefined;
  return value instanceof Date ? value.toISOString() : String(value);
}

/** The context fields SDKs carry by name; any other field of a context is a property. */
export const SDK_CONTEXT_FIELDS: ReadonlySet<string> = new Set([
  "userId",
  "sessionId",
  "remoteAddress",
  "appName",
  "environment",
  "currentTime",
]);
