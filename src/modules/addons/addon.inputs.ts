import { z } from "zod";
import { isEventType } from "../../events/catalogue.ts";

const parameterValue = z.union([z.string(), z.number(), z.boolean()]);

/** An addon as clients send it (spec 2.12, reference §8.2); provider checks come after. */
export const addonInputSchema = z.object({
  provider: z.string().min(1),
  description: z.string().max(10_000).nullish(),
  enabled: z.boolean().default(true),
  parameters: z.record(z.string(), parameterValue).default({}),
  events: z.array(z.string().refine(isEventType, { message: "is not an event type" })).default([]),
  projects: z.array(z.string().min(1)).default([]),
  environments: z.array(z.string().min(1)).default([]),
});

export type AddonInput = z.input<typeof addonInputSchema>;
export type AddonData = z.output<typeof addonInputSchema>;
