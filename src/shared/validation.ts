import { z } from "zod";
import { ValidationError } from "./errors.ts";

/**
 * Parses `value` with a zod schema; failures become one ValidationError naming each field
 * (its path under `at`, when `value` is a part of the body).
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  at: readonly string[] = [],
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => {
    const path = [...at, ...issue.path].join(".");
    return { path, message: path ? `${path}: ${issue.message}` : issue.message };
  });
  throw new ValidationError(details.map((d) => d.message).join("; "), details);
}

/** Unleash's URL-friendly names: letters, digits and - . _ ~ (1 to 100 characters). */
export const URL_FRIENDLY = /^[a-zA-Z0-9\-._~]+$/;

/** Unleash's URL-friendly id rule, shared by project ids and the names of catalogue objects. */
export const urlFriendlyName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(URL_FRIENDLY, "must be URL-friendly: letters, digits and - . _ ~ only")
  .refine((n) => n !== "." && n !== "..", "must not be . or ..");
