import { z } from "zod";

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
