import { z } from "zod";
import { urlFriendlyName } from "../../shared/validation.ts";

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
