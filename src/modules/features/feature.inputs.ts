import { z } from "zod";
import { URL_FRIENDLY } from "../../shared/validation.ts";
import { tagSchema } from "../tags/tag.inputs.ts";

export const createFeatureSchema = z.object({
  name: z
    .string()
    .min(1)
    .max(100)
    .regex(URL_FRIENDLY, "must be URL-friendly: letters, digits and - . _ ~ only")
    .refine((n) => n !== "." && n !== "..", "must not be . or .."),
  type: z.string().min(1).default("release"),
  description: z.string().max(10_000).nullish(),
  impressionData: z.boolean().default(false),
  tags: z.array(tagSchema).default([]),
});
export type CreateFeatureInput = z.input<typeof createFeatureSchema>;

export const updateFeatureSchema = z.object({
  description: z.string().max(10_000).nullish(),
  type: z.string().min(1).optional(),
  impressionData: z.boolean().optional(),
  stale: z.boolean().optional(),
});
export type UpdateFeatureInput = z.input<typeof updateFeatureSchema>;

export const linkSchema = z.object({
  url: z.string().trim().min(1).max(2000),
  title: z.string().trim().max(200).nullish(),
});
export type LinkInput = z.input<typeof linkSchema>;

export const completeFeatureSchema = z.object({
  status: z.enum(["kept", "discarded"]),
  statusValue: z.string().min(1).max(255).nullish(),
});
export type CompleteFeatureInput = z.input<typeof completeFeatureSchema>;
