import { z } from "zod";

/** Hours of metrics a read may cover: 1 to 30 days. */
export const MAX_HOURS_BACK = 720;

export const hoursBackArg = z
  .number()
  .int()
  .min(1, "hoursBack must be at least 1")
  .max(MAX_HOURS_BACK, `hoursBack must be at most ${MAX_HOURS_BACK}`);

const ADMIN_STRING = z.string().max(1000).nullish();
/** What an admin sets on an application (saveApplication). */
export const applicationMetadataInput = z.object({
  description: ADMIN_STRING,
  url: ADMIN_STRING,
  color: ADMIN_STRING,
  icon: ADMIN_STRING,
  strategies: z.array(z.string().min(1).max(100)).max(100).nullish(),
});
