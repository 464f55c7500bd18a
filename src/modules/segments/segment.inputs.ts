import { z } from "zod";
import type { ConstraintInput } from "../feature-environments/strategy.inputs.ts";

export const segmentSchema = z.object({
  name: z.string().trim().min(1).max(255),
  description: z.string().max(10_000).nullish(),
  project: z.string().min(1).nullish(),
  constraints: z.array(z.custom<ConstraintInput>()).default([]),
});
export type SegmentInput = z.input<typeof segmentSchema>;
