import { z } from "zod";
import { urlFriendlyName } from "../../shared/validation.ts";

const legalValues = z
  .array(
    z.object({
      value: z.string().trim().min(1).max(100),
      description: z.string().max(1000).nullish(),
    }),
  )
  .max(1000)
  .refine((values) => new Set(values.map((v) => v.value)).size === values.length, "values must be unique");

const fields = {
  description: z.string().max(10_000).nullish(),
  stickiness: z.boolean(),
  sortOrder: z.number().int().min(-1_000_000).max(1_000_000),
  legalValues,
};

export const createContextFieldSchema = z.object({
  name: urlFriendlyName,
  description: fields.description,
  stickiness: fields.stickiness.default(false),
  sortOrder: fields.sortOrder.default(10),
  legalValues: legalValues.default([]),
  /** The project of a project-scoped field; absent or null for a root field. */
  project: z.string().min(1).nullish(),
});
export type CreateContextFieldInput = z.input<typeof createContextFieldSchema>;

export const updateContextFieldSchema = z.object({
  description: fields.description,
  stickiness: fields.stickiness.optional(),
  sortOrder: fields.sortOrder.optional(),
  legalValues: legalValues.optional(),
});
export type UpdateContextFieldInput = z.input<typeof updateContextFieldSchema>;
