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

const tagTypeFields = {
  description: z.string().max(10_000).nullish(),
  icon: z.string().max(100).nullish(),
  color: z
    .string()
    .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "must be a hex colour like #1a2b3c")
    .nullish(),
};

export const createTagTypeSchema = z.object({ name: tagSchema.shape.type, ...tagTypeFields });
export type CreateTagTypeInput = z.input<typeof createTagTypeSchema>;
export const updateTagTypeSchema = z.object(tagTypeFields);
export type UpdateTagTypeInput = z.input<typeof updateTagTypeSchema>;
