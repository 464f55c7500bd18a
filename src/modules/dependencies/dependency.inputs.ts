import { z } from "zod";

export const addDependencySchema = z.object({
  feature: z.string().min(1),
  enabled: z.boolean().default(true),
  variants: z.array(z.string().min(1)).default([]),
});
export type AddDependencyInput = z.input<typeof addDependencySchema>;
