import type { EvaluationContext } from "../evaluation/client-features.types.ts";

/**
 * The same context, whatever the order its fields came in: the key under which an answer
 * evaluated for it is kept (frontend and OFREP bulk answers, sdk-documents.cache.ts).
 */
export function contextKey(context: EvaluationContext): string {
  const { properties, ...fields } = context;
  const sorted = (o: object) => Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([sorted(fields), sorted(properties ?? {})]);
}
