import { z } from "zod";
import { urlFriendlyName } from "../../shared/validation.ts";

const environmentType = z.string().trim().min(1).max(100);
const sortOrder = z.number().int().min(-1_000_000).max(1_000_000);

export const createEnvironmentSchema = z.object({
  name: urlFriendlyName,
  type: environmentType,
  enabled: z.boolean().default(true),
  sortOrder: sortOrder.default(1),
});
export type CreateEnvironmentInput = z.input<typeof createEnvironmentSchema>;

export const updateEnvironmentSchema = z.object({
  type: environmentType.optional(),
  sortOrder: sortOrder.optional(),
  enabled: z.boolean().optional(),
});
export type UpdateEnvironmentInput = z.input<typeof updateEnvironmentSchema>;
