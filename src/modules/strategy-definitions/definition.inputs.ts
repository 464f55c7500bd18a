import { z } from "zod";
import { URL_FRIENDLY } from "../../shared/validation.ts";

const parameter = z.object({
  name: z.string().trim().min(1).max(100),
  type: z.enum(["string", "percentage", "list", "number", "boolean"]),
  description: z
    .string()
    .max(2000)
    .nullish()
    .transform((d) => d ?? ""),
  required: z
    .boolean()
    .nullish()
    .transform((r) => r ?? false),
});
const parameters = z
  .array(parameter)
  .max(50)
  .refine((ps) => new Set(ps.map((p) => p.name)).size === ps.length, "parameter names must be unique");

export const createDefinitionInput = z.object({
  name: z.string().trim().min(1).max(100).regex(URL_FRIENDLY, "must be URL-friendly"),
  title: z.string().max(255).nullish(),
  description: z.string().max(2000).nullish(),
  parameters,
});
export const updateDefinitionInput = z.object({
  title: z.string().max(255).nullish(),
  description: z.string().max(2000).nullish(),
  parameters,
});
