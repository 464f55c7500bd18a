import { z } from "zod";
import { SAFEGUARD_BASELINES } from "../../events/payloads.ts";
import { labelSelectorsSchema } from "../client-metrics/impact-metrics.inputs.ts";
import { AGGREGATION_MODES } from "../client-metrics/impact-metrics.logic.ts";
import { newStrategySchema } from "../feature-environments/strategy.inputs.ts";

const MAX_MILESTONES = 20;
const MAX_STRATEGIES = 30;
const MAX_SAFEGUARDS = 10;
/** A milestone waits at most 30 days; a safeguard looks back at most a day. */
const MAX_AFTER_SECONDS = 30 * 86_400;
const MAX_WINDOW_SECONDS = 86_400;

const milestoneInput = z.object({
  name: z.string().trim().min(1).max(100),
  strategies: z
    .array(newStrategySchema)
    .min(1, "a milestone needs at least one strategy")
    .max(MAX_STRATEGIES),
  afterSeconds: z
    .number()
    .int()
    .positive("must be a positive number of seconds")
    .max(MAX_AFTER_SECONDS)
    .nullish(),
});

export const templateInput = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().max(1000).nullish(),
  milestones: z.array(milestoneInput).min(1, "a template needs at least one milestone").max(MAX_MILESTONES),
});

export type TemplateInput = z.infer<typeof templateInput>;

export const safeguardInput = z.object({
  metricName: z.string().min(1).max(255),
  aggregationMode: z.enum(AGGREGATION_MODES),
  labelSelectors: labelSelectorsSchema.nullish(),
  operator: z.enum([">", "<"]),
  threshold: z.number().refine(Number.isFinite, "must be a finite number"),
  windowSeconds: z.number().int().positive("must be a positive number of seconds").max(MAX_WINDOW_SECONDS),
  action: z.enum(["rollback", "disable"]).nullish(),
  baseline: z.enum(SAFEGUARD_BASELINES).nullish(),
});
export const safeguardsInput = z.array(safeguardInput).max(MAX_SAFEGUARDS);
