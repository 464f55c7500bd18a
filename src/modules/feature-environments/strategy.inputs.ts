import { z } from "zod";
import { CONSTRAINT_OPERATORS } from "./strategy.types.ts";
import { TOTAL_WEIGHT } from "./variant-weights.logic.ts";

// The inputs of strategies, their constraints and variants (and of environment variants), as
// every module that takes one checks them (strategies, segments, default strategies, imports).

export const constraintSchema = z.object({
  contextName: z.string().min(1).max(100),
  operator: z.enum(CONSTRAINT_OPERATORS),
  caseInsensitive: z.boolean().nullish(),
  inverted: z.boolean().nullish(),
  values: z.array(z.string()).nullish(),
  value: z.string().nullish(),
});
export type ConstraintInput = z.input<typeof constraintSchema>;

/** Every variant set shares 1000 weight units (spec 2.4). */

const payloadSchema = z.object({
  type: z.enum(["json", "csv", "string", "number"]),
  value: z.string(),
});

export const variantSchema = z.object({
  name: z.string().min(1).max(255),
  weight: z.number().min(0).max(TOTAL_WEIGHT).nullish(),
  weightType: z.enum(["variable", "fix"]).nullish(),
  stickiness: z.string().min(1).nullish(),
  payload: payloadSchema.nullish(),
  overrides: z.array(z.object({ contextName: z.string().min(1), values: z.array(z.string()) })).nullish(),
});
export type VariantInput = z.input<typeof variantSchema>;

/** A strategy parameter's value as sent (stored as text). */
export const parameterValue = z.union([z.string(), z.number(), z.boolean()]);

/**
 * A field that cannot be null takes null as absent: an update keeps its value, an insert takes
 * the column's default. Said once here, so the writes can store such fields as given.
 */
const nullMeansAbsent = <T extends z.ZodType>(schema: T) =>
  schema
    .nullish()
    .transform((value): z.output<T> | undefined => value ?? undefined)
    .optional();

/**
 * A strategy's fields besides its name: change-request proposals check the same ones. A field
 * added here is stored by the strategy writes as given (storedAsGiven) unless they shape it.
 */
export const strategyInputFields = {
  title: z.string().max(255).nullish(),
  disabled: nullMeansAbsent(z.boolean()),
  sortOrder: z.number().int().nullish(),
  parameters: z.record(z.string(), parameterValue).nullish(),
  constraints: z.array(z.custom<ConstraintInput>()).nullish(),
  variants: z.array(z.custom<VariantInput>()).nullish(),
  segments: z.array(z.number().int()).nullish(),
};
export const newStrategySchema = z.object({ name: z.string().min(1).max(255), ...strategyInputFields });
export const strategyUpdateSchema = z.object({
  name: z.string().min(1).max(255).nullish(),
  ...strategyInputFields,
});
export type NewStrategyInput = z.input<typeof newStrategySchema>;
export type StrategyUpdateInput = z.input<typeof strategyUpdateSchema>;
export type NewStrategy = z.output<typeof newStrategySchema>;

export const strategySortOrderSchema = z.array(
  z.object({ id: z.string().min(1), sortOrder: z.number().int() }),
);
export type StrategySortOrderInput = z.input<typeof strategySortOrderSchema>;

/** The fields the strategy writes shape themselves (normalise, check, order, rename). */
type ShapedField = "name" | "sortOrder" | "parameters" | "constraints" | "variants" | "segments";

/** A parsed strategy's other fields, which the writes store as given (title, disabled, …). */
export function storedAsGiven<T extends Partial<Record<ShapedField, unknown>>>(
  input: T,
): Omit<T, ShapedField> {
  const { name, sortOrder, parameters, constraints, variants, segments, ...given } = input;
  return given;
}
