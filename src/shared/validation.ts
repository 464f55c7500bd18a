import type { z } from "zod";
import { ValidationError } from "./errors.ts";

/** Parses `value` with a zod schema; failures become one ValidationError naming each field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => {
    const path = issue.path.join(".");
    return { path, message: path ? `${path}: ${issue.message}` : issue.message };
  });
  throw new ValidationError(details.map((d) => d.message).join("; "), details);
}

/** Unleash's URL-friendly names: letters, digits and - . _ ~ (1 to 100 characters). */
export const URL_FRIENDLY = /^[a-zA-Z0-9\-._~]+$/;
