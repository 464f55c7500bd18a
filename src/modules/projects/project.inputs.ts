import { z } from "zod";
import { URL_FRIENDLY } from "../../shared/validation.ts";

/** Unleash's URL-friendly id rule, shared by project ids and the names of catalogue objects. */
export const urlFriendlyName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(URL_FRIENDLY, "must be URL-friendly: letters, digits and - . _ ~ only")
  .refine((n) => n !== "." && n !== "..", "must not be . or ..");

const projectName = z.string().trim().min(1).max(100);
const description = z.string().max(10_000).nullish();

export const createProjectSchema = z.object({
  id: urlFriendlyName.nullish(),
  name: projectName,
  description,
  /** Environments to link; default every enabled environment. */
  environments: z.array(z.string().min(1)).min(1).nullish(),
});
export type CreateProjectInput = z.input<typeof createProjectSchema>;

export const updateProjectSchema = z.object({
  name: projectName.optional(),
  description,
});
export type UpdateProjectInput = z.input<typeof updateProjectSchema>;
