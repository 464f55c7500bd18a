import { builder } from "../../builder.ts";
import type { strategyInputFields } from "./strategy.inputs.ts";
import { ConstraintOperatorEnum } from "./strategy.schema.ts";

/** GraphQL input types shared by strategies, variants and segments. */

export const ConstraintInput = builder.inputType("ConstraintInput", {
  description:
    "A condition on one context field (spec 2.2). IN, NOT_IN and STR_* take `values`; NUM_* a number, DATE_* an RFC 3339 date-time and SEMVER_* a semantic version in `value`.",
  fields: (t) => ({
    contextName: t.string({ required: true, description: "Context field the constraint applies to." }),
    operator: t.field({ type: ConstraintOperatorEnum, required: true, description: "Comparison operator." }),
    caseInsensitive: t.boolean({ description: "Compare strings ignoring case (default false)." }),
    inverted: t.boolean({ description: "Negate the result (default false)." }),
    values: t.stringList({ description: "Values of multi-value operators." }),
    value: t.string({ description: "Value of single-value operators." }),
  }),
});

export const WeightTypeEnum = builder.enumType("VariantWeightType", {
  description: "`fix` keeps the given weight; `variable` variants share what the fix ones leave of 1000.",
  values: {
    variable: { description: "Shares what the fix variants leave of 1000." },
    fix: { description: "Keeps exactly the given weight." },
  } as const,
});

export const PayloadTypeEnum = builder.enumType("VariantPayloadType", {
  description: "Kind of a variant payload: json must parse, number must be a number.",
  values: {
    json: { description: "A JSON document (must parse)." },
    csv: { description: "Comma-separated values." },
    string: { description: "Plain text." },
    number: { description: "A number." },
  } as const,
});

const PayloadInput = builder.inputType("VariantPayloadInput", {
  description: "A variant payload (spec 2.3).",
  fields: (t) => ({
    type: t.field({ type: PayloadTypeEnum, required: true, description: "Payload kind." }),
    value: t.string({ required: true, description: "Payload content." }),
  }),
});

export const StrategyVariantInput = builder.inputType("StrategyVariantInput", {
  description: "A strategy-level variant (spec 2.4).",
  fields: (t) => ({
    name: t.string({ required: true, description: "Unique within the strategy." }),
    weight: t.int({ description: "Share out of 1000; required for `fix`, computed for `variable`." }),
    weightType: t.field({ type: WeightTypeEnum, description: "Default variable." }),
    stickiness: t.string({ description: "Context field keeping a user on one variant (default `default`)." }),
    payload: t.field({ type: PayloadInput, description: "Optional payload." }),
  }),
});

const OverrideInput = builder.inputType("VariantOverrideInput", {
  description: "Gives the variant to these context values before weights apply.",
  fields: (t) => ({
    contextName: t.string({ required: true, description: "Context field." }),
    values: t.stringList({ required: true, description: "Values that get this variant." }),
  }),
});

export const EnvironmentVariantInput = builder.inputType("EnvironmentVariantInput", {
  description: "A variant of a flag in one environment (spec 2.5).",
  fields: (t) => ({
    name: t.string({ required: true, description: "Unique within the environment." }),
    weight: t.float({ description: "Share out of 1000 (whole units); required for `fix`." }),
    weightType: t.field({ type: WeightTypeEnum, description: "Default variable." }),
    stickiness: t.string({ description: "Stickiness field (default `default`)." }),
    payload: t.field({ type: PayloadInput, description: "Optional payload." }),
    overrides: t.field({ type: [OverrideInput], description: "Context values forced to this variant." }),
  }),
});

// The input's fields are the zod schema's (strategy.inputs.ts), each one: a field added there
// does not compile here until the GraphQL input takes it.
const strategyFields = (t: PothosInputFieldBuilder) =>
  ({
    title: t.string({ description: "Optional human title." }),
    disabled: t.boolean({ description: "Disabled strategies are kept but not evaluated." }),
    sortOrder: t.int({ description: "Position in the list (default: after the last one)." }),
    parameters: t.field({
      type: "JSON",
      description: "Map of parameter names to values (stored as strings).",
    }),
    constraints: t.field({
      type: [ConstraintInput],
      description: "All must hold for the strategy to apply.",
    }),
    variants: t.field({ type: [StrategyVariantInput], description: "Strategy-level variants." }),
    segments: t.intList({ description: "Ids of segments to attach (each must exist)." }),
  }) satisfies Record<keyof typeof strategyInputFields, unknown>;
type PothosInputFieldBuilder = Parameters<Parameters<typeof builder.inputType>[1]["fields"]>[0];

export const StrategyInput = builder.inputType("StrategyInput", {
  description: "A new activation strategy (spec 2.6).",
  fields: (t) => ({
    name: t.string({ required: true, description: "Strategy type, e.g. flexibleRollout." }),
    ...strategyFields(t),
  }),
});

export const StrategyUpdateInput = builder.inputType("StrategyUpdateInput", {
  description: "Changes to a strategy; fields left out keep their value.",
  fields: (t) => ({
    name: t.string({ description: "Strategy type." }),
    ...strategyFields(t),
  }),
});

export const StrategySortOrderInput = builder.inputType("StrategySortOrderInput", {
  description: "The new position of one strategy.",
  fields: (t) => ({
    id: t.string({ required: true, description: "Strategy id." }),
    sortOrder: t.int({ required: true, description: "New sortOrder." }),
  }),
});
