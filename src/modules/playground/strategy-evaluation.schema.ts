import { builder } from "../../builder.ts";
import type { ConstraintResult } from "../evaluation/constraints.logic.ts";
import type { SegmentResult, StrategyEvaluation } from "../evaluation/engine.logic.ts";
import { isKnownStrategy, type StrategyRuleResult } from "../evaluation/strategies.logic.ts";
import { evaluationStatus } from "./playground.logic.ts";

// How the playground explains one strategy of a flag: its constraints, segments and rollout.

const EvaluationStatusEnum = builder.enumType("StrategyEvaluationStatus", {
  description: "How far the playground could evaluate a strategy.",
  values: {
    COMPLETE: { value: "complete", description: "Evaluated: `result` is the answer." },
    INCOMPLETE: {
      value: "incomplete",
      description:
        "A custom strategy whose constraints and segments hold: its answer depends on code only SDKs that " +
        "implement it run (`result` is false, as in SDKs without it).",
    },
    UNEVALUATED: { value: "unevaluated", description: "Disabled, so skipped." },
  } as const,
});

const ConstraintEvaluationRef = builder.objectRef<ConstraintResult>("ConstraintEvaluation").implement({
  description: "One constraint checked against the context.",
  fields: (t) => ({
    contextName: t.exposeString("contextName", { description: "Context field." }),
    operator: t.exposeString("operator", { description: "Operator, e.g. IN or SEMVER_GTE." }),
    values: t.stringList({ description: "Values (list operators).", resolve: (c) => c.values ?? [] }),
    value: t.string({
      nullable: true,
      description: "Value (single-value operators).",
      resolve: (c) => c.value ?? null,
    }),
    inverted: t.exposeBoolean("inverted", { description: "Whether the result was negated." }),
    caseInsensitive: t.exposeBoolean("caseInsensitive", { description: "Whether case was ignored." }),
    contextValue: t.string({
      nullable: true,
      description: "The context's value the operator saw; null when the context lacks the field.",
      resolve: (c) => c.contextValue ?? null,
    }),
    result: t.exposeBoolean("result", { description: "Whether the constraint held." }),
  }),
});

const SegmentEvaluationRef = builder.objectRef<SegmentResult>("SegmentEvaluation").implement({
  description: "A segment checked against the context (its constraints all must hold).",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "Segment id." }),
    name: t.string({
      nullable: true,
      description: "Segment name; null for a missing segment.",
      resolve: (s) => s.name ?? null,
    }),
    result: t.exposeBoolean("result", { description: "Whether the segment matched." }),
    constraints: t.expose("constraints", {
      type: [ConstraintEvaluationRef],
      description: "Its constraints up to the first that failed.",
    }),
  }),
});

type Rollout = NonNullable<StrategyRuleResult["rollout"]>;
const RolloutEvaluationRef = builder.objectRef<Rollout>("RolloutEvaluation").implement({
  description: "A percentage rollout's decision for the context.",
  fields: (t) => ({
    stickiness: t.exposeString("stickiness", { description: "The field the bucket was computed from." }),
    bucket: t.int({
      nullable: true,
      description: "The context's bucket, 1 to 100; null when the stickiness field is missing.",
      resolve: (r) => r.bucket,
    }),
    percentage: t.exposeFloat("percentage", { description: "The rollout percentage." }),
  }),
});

export const StrategyEvaluationRef = builder.objectRef<StrategyEvaluation>("StrategyEvaluation").implement({
  description: "One strategy of the flag evaluated for the context.",
  fields: (t) => ({
    id: t.string({ nullable: true, description: "Strategy id.", resolve: (s) => s.id ?? null }),
    name: t.exposeString("name", { description: "Strategy name, e.g. flexibleRollout." }),
    title: t.string({ nullable: true, description: "Strategy title.", resolve: (s) => s.title ?? null }),
    disabled: t.boolean({
      description: "The strategy is disabled and was skipped.",
      resolve: (s) => !s.active,
    }),
    known: t.boolean({
      description:
        "Whether Vexil evaluates this strategy; a custom strategy is only evaluated by SDKs that implement it " +
        "(here, as in SDKs without it, it is off).",
      resolve: (s) => isKnownStrategy(s.name),
    }),
    result: t.exposeBoolean("result", { description: "Whether the strategy is on for the context." }),
    evaluationStatus: t.field({
      type: EvaluationStatusEnum,
      description: "How far it could be evaluated (Unleash's playground `evaluationStatus`).",
      resolve: (s) => evaluationStatus(s),
    }),
    constraints: t.expose("constraints", {
      type: [ConstraintEvaluationRef],
      description: "Its constraints up to the first that failed.",
    }),
    segments: t.expose("segments", {
      type: [SegmentEvaluationRef],
      description: "Its segments up to the first that failed (none when a constraint failed).",
    }),
    rollout: t.field({
      type: RolloutEvaluationRef,
      nullable: true,
      description: "The rollout decision of percentage strategies that got that far.",
      resolve: (s) => s.rule?.rollout ?? null,
    }),
    missingContext: t.string({
      nullable: true,
      description: "The context field the strategy needed and did not get (e.g. userId).",
      resolve: (s) => s.rule?.missing ?? null,
    }),
  }),
});

builder.objectField(StrategyEvaluationRef, "parameters", (t) =>
  t.field({ type: "JSON", description: "The strategy's parameters.", resolve: (s) => s.parameters }),
);
