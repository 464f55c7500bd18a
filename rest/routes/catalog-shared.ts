import { z } from "zod";

/**
 * The keys of a JSON body that a GraphQL input knows, as sent (null kept, absent left out):
 * Unleash clients send extra keys the GraphQL input would reject; REST checks no values (a strict
 * body schema refuses unknown keys before this runs: rest/body-fields.ts).
 */
export function bodyFields(body: unknown, keys: readonly string[]): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return {};
  const record = body as Record<string, unknown>;
  return Object.fromEntries(keys.filter((k) => k in record).map((k) => [k, record[k]]));
}

/** Unleash's `environmentSchema`. */
export const ENVIRONMENT_FIELDS = "name type enabled protected sortOrder projectCount enabledToggleCount";

export const environmentSchema = z.object({
  name: z.string(),
  type: z.string(),
  enabled: z.boolean(),
  protected: z.boolean(),
  sortOrder: z.number().int(),
  projectCount: z.number().int(),
  enabledToggleCount: z.number().int(),
});
