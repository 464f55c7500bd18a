import { builder } from "../../builder.ts";
import { NODE_ID } from "../../shared/node-ids.ts";
import type { FlagRecordStrategy, Serves } from "../flag-record/flag-record.logic.ts";
import { CONSTRAINT_OPERATORS, type Constraint, type StrategyVariant } from "./strategy.types.ts";

export const ConstraintOperatorEnum = builder.enumType("ConstraintOperator", {
  description:
    "Operators of spec 2.2: IN, NOT_IN and STR_* take `values` (as in Unleash); NUM_*, DATE_* and SEMVER_* a single `value`.",
  values: CONSTRAINT_OPERATORS,
});

export const ConstraintRef = builder.objectRef<Constraint>("Constraint").implement({
  description: "A condition on one context field (spec 2.2).",
  fields: (t) => ({
    contextName: t.exposeString("contextName", { description: "Context field the constraint applies to." }),
    operator: t.field({
      type: ConstraintOperatorEnum,
      resolve: (c) => c.operator as (typeof CONSTRAINT_OPERATORS)[number],
      description: "Comparison operator.",
    }),
    caseInsensitive: t.boolean({
      resolve: (c) => c.caseInsensitive ?? false,
      description: "Compare strings ignoring case.",
    }),
    inverted: t.boolean({ resolve: (c) => c.inverted ?? false, description: "Negates the result." }),
    values: t.stringList({ resolve: (c) => c.values ?? [], description: "Values of multi-value operators." }),
    value: t.string({
      nullable: true,
      resolve: (c) => c.value ?? null,
      description: "Value of single-value operators.",
    }),
  }),
});

export const PayloadRef = builder.objectRef<{ type: string; value: string }>("VariantPayload").implement({
  description: "A variant payload (spec 2.3).",
  fields: (t) => ({
    type: t.exposeString("type", { description: "json, csv, string or number." }),
    value: t.exposeString("value", { description: "The payload content." }),
  }),
});

export const StrategyVariantRef = builder.objectRef<StrategyVariant>("StrategyVariant").implement({
  description: "A strategy-level variant (spec 2.4).",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Unique within the strategy." }),
    weight: t.exposeInt("weight", { description: "Share out of 1000." }),
    weightType: t.exposeString("weightType", {
      description: "`fix` keeps the weight; `variable` shares the rest.",
    }),
    stickiness: t.exposeString("stickiness", { description: "Context field keeping a user on one variant." }),
    payload: t.field({
      type: PayloadRef,
      nullable: true,
      resolve: (v) => v.payload ?? null,
      description: "Optional payload.",
    }),
  }),
});

export const FeatureStrategyRef = builder.prismaNode("FeatureStrategy", {
  name: "Strategy",
  description: "An activation strategy of a flag in one environment (spec 2.6).",
  nullable: true,
  id: { ...NODE_ID, field: "id" },
  // Every field of the flag record's strategy (flag-record.logic.ts), and where it is: a field
  // added to the record does not compile here until the type serves it.
  fields: (t) =>
    ({
      databaseId: t.exposeString("id", {
        description: "UUID, the strategy's id in the REST API and arguments.",
      }),
      name: t.exposeString("strategyName", { description: "Strategy type, e.g. flexibleRollout." }),
      title: t.exposeString("title", { nullable: true, description: "Optional human title." }),
      disabled: t.exposeBoolean("disabled", { description: "Disabled strategies are not evaluated." }),
      featureName: t.exposeString("featureName", { description: "The flag." }),
      environment: t.exposeString("environmentName", { description: "The environment." }),
      sortOrder: t.exposeInt("sortOrder", { description: "Position in the list, ascending." }),
      segments: t.intList({
        description: "Ids of attached segments.",
        select: { segments: { select: { segmentId: true }, orderBy: { segmentId: "asc" } } },
        resolve: (s) => s.segments.map((x) => x.segmentId),
      }),
      constraints: t.field({
        type: [ConstraintRef],
        description: "All must hold for the strategy to apply.",
        resolve: (s) => s.constraints as Constraint[],
      }),
      variants: t.field({
        type: [StrategyVariantRef],
        description: "Strategy-level variants.",
        resolve: (s) => s.variants as StrategyVariant[],
      }),
      parameters: t.field({
        type: "JSON",
        description: "Map of parameter names to string values.",
        resolve: (s) => s.parameters,
      }),
    }) satisfies Serves<FlagRecordStrategy, { id: "databaseId" }> &
      Record<"featureName" | "environment", unknown>,
});
