import { z } from "zod";

/** Hours of metrics a read may cover: 1 to 30 days. */
export const MAX_HOURS_BACK = 720;

export const hoursBackArg = z
  .number()
  .int()
  .min(1, "hoursBack must be at least 1")
  .max(MAX_HOURS_BACK, `hoursBack must be at most ${MAX_HOURS_BACK}`);
