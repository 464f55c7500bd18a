import { z } from "zod";

/** A tag reference `{type, value}`; values are 2 to 50 characters (spec 2.1, section 8). */
export const tagSchema = z.object({
  type: z
    .string()
    .min(2)
    .max(50)
    .regex(/^[a-zA-Z0-9\-._~]+$/, "tag type must be URL-friendly"),
  value: z.string().trim().min(2).max(50),
});
