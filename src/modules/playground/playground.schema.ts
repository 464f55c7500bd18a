import { randomInt } from "node:crypto";
import { z } from "zod";
import { builder } from "../../builder.ts";
import { ValidationError } from "../../shared/errors.ts";
import { parseInput } from "../../shared/validation.ts";
import type { EvaluationContext } from "../evaluation/client-features.types.ts";
import type { ConstraintResult } from "../evaluation/constraints.logic.ts";
import type { EvaluatedVariant, SegmentResult, StrategyEvaluation } from "../evaluation/engine.logic.ts";
import { isKnownStrategy, type StrategyRuleResult } from "../evaluation/strategies.logic.ts";
import { EnvironmentVariantRef } from "../feature-environments/feature-environment.schema.ts";
import { PayloadRef } from "../feature-environments/strategy.schema.ts";
import type { EnvironmentVariant } from "../feature-environments/strategy.types.ts";
import { feedFor } from "../live/feed.live.ts";
import { followEvents, withCurrentFirst } from "../live/follow.live.ts";
import { changedEvaluations } from "./playground.live.ts";
import {
  type ContextValues,
  contextCombinations,
  evaluatePlayground,
  evaluationStatus,
  MAX_COMBINATIONS,
  matchedStrategy,
  type PlaygroundFlag,
  strategiesOutcome,
} from "./playground.logic.ts";
import { playgroundState } from "./playground-state.read.ts";

const ReasonEnum = builder.enumType("EvaluationReason", {
  description: "Why a flag evaluated as it did.",
  values: {
    UNKNOWN_FLAG: { value: "unknown-flag", description: "No such flag in the evaluated projects." },
    DEPENDENCY_NOT_SATISFIED: {
      value: "dependency-not-satisfied",
      description: "A parent flag is not in the required state (see `unsatisfiedDependency`).",
    },
    FLAG_DISABLED: { value: "flag-disabled", description: "The flag is off in this environment." },
    NO_STRATEGIES: { value: "no-strategies", description: "On, with no strategy: on for everyone." },
    STRATEGY_MATCHED: {
      value: "strategy-matched",
      description: "A strategy matched (see `matchedStrategy`).",
    },
    NO_STRATEGY_MATCHED: {
      value: "no-strategy-matched",
      description: "On, but no strategy matched the context (see `strategies`).",
    },
  } as const,
});

const VariantSourceEnum = builder.enumType("VariantSource", {
  description: "Where the chosen variant came from.",
  values: {
    STRATEGY: { value: "strategy", description: "The matched strategy's variants." },
    FLAG: { value: "flag", description: "The flag's variants in the environment." },
  } as const,
});

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

const StrategiesOutcomeEnum = builder.enumType("StrategiesOutcome", {
  description: "What a flag's strategies answer together.",
  values: {
    ON: { value: "on", description: "A strategy was evaluated and is on for the context." },
    OFF: { value: "off", description: "None is on, and every strategy could be evaluated." },
    UNKNOWN: { value: "unknown", description: "None evaluated on, but an INCOMPLETE one might be." },
  } as const,
});

const EvaluatedVariantRef = builder.objectRef<EvaluatedVariant>("EvaluatedVariant").implement({
  description: "The variant a context gets; `disabled` (enabled false) when the flag is off or has none.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Variant name, or `disabled`." }),
    enabled: t.exposeBoolean("enabled", { description: "Whether a real variant was chosen." }),
    featureEnabled: t.exposeBoolean("feature_enabled", {
      description: "Whether the flag is on for the context.",
    }),
    payload: t.field({
      type: PayloadRef,
      nullable: true,
      description: "The variant's payload.",
      resolve: (v) => v.payload ?? null,
    }),
  }),
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

const StrategyEvaluationRef = builder.objectRef<StrategyEvaluation>("StrategyEvaluation").implement({
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

const DependencyRequirementRef = builder
  .objectRef<{ parent: string; enabled: boolean; variants?: string[] }>("DependencyRequirement")
  .implement({
    description: "A parent flag's required state that the context did not meet.",
    fields: (t) => ({
      parent: t.exposeString("parent", { description: "Parent flag." }),
      enabled: t.exposeBoolean("enabled", { description: "Whether the parent must be on (false: off)." }),
      variants: t.stringList({
        description: "Parent variants of which one is required (empty: any).",
        resolve: (d) => d.variants ?? [],
      }),
    }),
  });

type VariantRule = NonNullable<PlaygroundFlag["variantRule"]>;
const VariantRuleRef = builder.objectRef<VariantRule>("VariantRule").implement({
  description: "How the variant was chosen.",
  fields: (t) => ({
    source: t.expose("source", {
      type: VariantSourceEnum,
      description: "Strategy or flag variants.",
    }),
    override: t.boolean({
      description: "An override matched the context.",
      resolve: (r) => r.kind === "override",
    }),
    contextName: t.string({
      nullable: true,
      description: "The overriding context field.",
      resolve: (r) => (r.kind === "override" ? r.contextName : null),
    }),
    contextValue: t.string({
      nullable: true,
      description: "The overriding context value.",
      resolve: (r) => (r.kind === "override" ? r.contextValue : null),
    }),
    stickiness: t.string({
      nullable: true,
      description: "The field the weight bucket was computed from.",
      resolve: (r) => (r.kind === "weight" ? r.stickiness : null),
    }),
    bucket: t.int({
      nullable: true,
      description: "The context's bucket among the weights.",
      resolve: (r) => (r.kind === "weight" ? r.bucket : null),
    }),
    totalWeight: t.int({
      nullable: true,
      description: "The sum of the variants' weights.",
      resolve: (r) => (r.kind === "weight" ? r.totalWeight : null),
    }),
  }),
});

export const FlagEvaluationRef = builder.objectRef<PlaygroundFlag>("FlagEvaluation").implement({
  description: "A flag evaluated for one context in one environment, and why.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Flag name." }),
    project: t.exposeString("project", {
      nullable: true,
      description: "Its project; null for an unknown flag.",
    }),
    enabled: t.exposeBoolean("enabled", { description: "Whether the flag is on for the context." }),
    variant: t.expose("variant", {
      type: EvaluatedVariantRef,
      description: "The variant the context gets.",
    }),
    impressionData: t.exposeBoolean("impressionData", {
      description: "Whether SDKs emit impression events.",
    }),
    onInEnvironment: t.exposeBoolean("onInEnvironment", {
      description: "The flag's own toggle in the environment, whatever the context.",
    }),
    reason: t.field({ type: ReasonEnum, description: "Why.", resolve: (f) => f.reason.kind }),
    unsatisfiedDependency: t.field({
      type: DependencyRequirementRef,
      nullable: true,
      description: "With DEPENDENCY_NOT_SATISFIED: the parent and the state it must be in.",
      resolve: (f) =>
        f.reason.kind === "dependency-not-satisfied"
          ? { parent: f.reason.parent, ...f.reason.required }
          : null,
    }),
    matchedStrategy: t.field({
      type: StrategyEvaluationRef,
      nullable: true,
      description: "With STRATEGY_MATCHED: the first strategy that is on for the context.",
      resolve: (f) => matchedStrategy(f),
    }),
    strategies: t.expose("strategies", {
      type: [StrategyEvaluationRef],
      description:
        "Every strategy explained, in order (for a flag that is off: what each would say were it on).",
    }),
    strategiesOutcome: t.field({
      type: StrategiesOutcomeEnum,
      description:
        "What its strategies answer together, whether or not the flag is on (Unleash's playground " +
        "`strategies.result`).",
      resolve: (f) => strategiesOutcome(f.strategies),
    }),
    variantRule: t.expose("variantRule", {
      type: VariantRuleRef,
      nullable: true,
      description: "How the variant was chosen, when one was.",
    }),
    variants: t.field({
      type: [EnvironmentVariantRef],
      description: "The flag's variants in the environment.",
      resolve: (f) => f.variants as EnvironmentVariant[],
    }),
  }),
});

export const EvaluationContextInput = builder.inputType("EvaluationContextInput", {
  description:
    "The context an SDK would evaluate with. Any other field goes in `properties` (values are strings, " +
    "numbers or booleans).",
  fields: (t) => ({
    userId: t.string({ description: "The user's id." }),
    sessionId: t.string({ description: "The session's id." }),
    remoteAddress: t.string({ description: "The client's IP address." }),
    appName: t.string({ description: "The application's name." }),
    environment: t.string({
      description: "The environment the application reports (a context field, not the one evaluated).",
    }),
    currentTime: t.field({
      type: "DateTime",
      description: "The time date constraints compare with (default: now).",
    }),
    properties: t.field({
      type: "JSON",
      description: "Custom context fields: an object of names to values.",
    }),
  }),
});

builder.objectField(StrategyEvaluationRef, "parameters", (t) =>
  t.field({ type: "JSON", description: "The strategy's parameters.", resolve: (s) => s.parameters }),
);

const contextSchema = z.object({
  userId: z.string().nullish(),
  sessionId: z.string().nullish(),
  remoteAddress: z.string().nullish(),
  appName: z.string().nullish(),
  environment: z.string().nullish(),
  currentTime: z.date().nullish(),
  properties: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]), {
      error: "properties must be an object of names to strings, numbers or booleans",
    })
    .nullish(),
});

/** The GraphQL input as the engine's context (absent fields left out, as SDKs leave them). */
export function toEvaluationContext(input: unknown): EvaluationContext {
  const parsed = parseInput(contextSchema, input);
  const context: EvaluationContext = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (value !== null && value !== undefined) context[key] = value;
  }
  return context;
}

type ContextEvaluation = {
  environment: string;
  contextIndex: number;
  context: ContextValues;
  flags: PlaygroundFlag[];
};
const ContextEvaluationRef = builder.objectRef<ContextEvaluation>("ContextEvaluation").implement({
  description: "The flags evaluated for one of the given contexts in one environment.",
  fields: (t) => ({
    environment: t.exposeString("environment", { description: "Environment evaluated in." }),
    contextIndex: t.exposeInt("contextIndex", {
      description: "Position of the context in `contexts` (with `combineLists`: of the combination).",
    }),
    context: t.field({
      type: "JSON",
      description:
        "The context evaluated, as given (with `combineLists`: this combination's values); `currentTime` " +
        "as an ISO 8601 string.",
      resolve: (row) => jsonContext(row.context),
    }),
    flags: t.expose("flags", {
      type: [FlagEvaluationRef],
      description: "The flags, evaluated.",
    }),
  }),
});

/** Environments x contexts evaluated by one `evaluateMany` (each is a pass over every flag). */
export const MAX_EVALUATIONS = 100;

function combinationsOf(context: ContextValues): ContextValues[] {
  const combinations = contextCombinations(context);
  if (!combinations) {
    throw new ValidationError(`The context's lists make more than ${MAX_COMBINATIONS} combinations`);
  }
  return combinations;
}

/** A context input as JSON: no absent fields, the date as ISO 8601. */
function jsonContext({ currentTime, ...context }: ContextValues): Record<string, unknown> {
  const present = Object.entries(context).filter(([, value]) => value !== null && value !== undefined);
  const time = currentTime instanceof Date ? { currentTime: currentTime.toISOString() } : {};
  return { ...Object.fromEntries(present), ...time };
}

/** What `evaluate` and `evaluatedFlags` evaluate: one environment, one context. */
const evaluationArgs = builder.args((t) => ({
  environment: t.string({ required: true, description: "Environment to evaluate in." }),
  context: t.field({ type: EvaluationContextInput, required: true, description: "The context." }),
  flags: t.stringList({ description: "Only these flags, in this order (unknown ones: UNKNOWN_FLAG)." }),
  projects: t.stringList({ description: "Only flags of these projects." }),
}));

builder.queryField("evaluate", (t) =>
  t.field({
    type: [FlagEvaluationRef],
    description:
      "The playground: the flags of an environment evaluated for one context as an SDK would, each with why " +
      "(which strategy, which constraint or segment failed or matched, which variant rule). Reads the " +
      "configuration the SDKs are served. Projects default to every project the credential may read.",
    authScopes: { authenticated: true },
    args: evaluationArgs,
    resolve: async (_root, args, ctx) => {
      const compiled = await playgroundState(ctx, args.environment, args.projects);
      return evaluatePlayground(compiled, toEvaluationContext(args.context), args.flags);
    },
  }),
);

builder.queryField("evaluateMany", (t) =>
  t.field({
    type: [ContextEvaluationRef],
    description: `\`evaluate\` for every environment and context given (at most ${MAX_EVALUATIONS} pairs).`,
    authScopes: { authenticated: true },
    args: {
      environments: t.arg.stringList({ required: true, description: "Environments to evaluate in." }),
      contexts: t.arg({ type: [EvaluationContextInput], required: true, description: "The contexts." }),
      flags: t.arg.stringList({ description: "Only these flags." }),
      projects: t.arg.stringList({ description: "Only flags of these projects." }),
      combineLists: t.arg.boolean({
        defaultValue: false,
        description:
          "Unleash's advanced playground: a string value holding commas is a list (items trimmed, empty ones " +
          `dropped), and every combination of a context's lists is evaluated (at most ${MAX_COMBINATIONS}).`,
      }),
    },
    resolve: async (_root, args, ctx) => {
      const given = args.contexts as ContextValues[];
      const inputs = args.combineLists ? given.flatMap(combinationsOf) : given;
      const pairs = args.environments.length * inputs.length;
      if (pairs > MAX_EVALUATIONS) {
        throw new ValidationError(`At most ${MAX_EVALUATIONS} environment and context pairs (got ${pairs}).`);
      }
      const contexts = inputs.map(toEvaluationContext);
      const rows: ContextEvaluation[] = [];
      for (const environment of args.environments) {
        const compiled = await playgroundState(ctx, environment, args.projects);
        for (const [contextIndex, context] of contexts.entries()) {
          const flags = evaluatePlayground(compiled, context, args.flags);
          rows.push({ environment, contextIndex, context: inputs[contextIndex] ?? {}, flags });
        }
      }
      return rows;
    },
  }),
);

builder.subscriptionField("evaluatedFlags", (t) =>
  t.field({
    type: [FlagEvaluationRef],
    description:
      "A frontend's flags kept current: `evaluate` for the context now, then again after each committed change " +
      "that alters a flag's result, variant or impression setting for it (one message per such change, none " +
      "for others). Random stickiness is drawn once per subscription, so answers stay stable between changes.",
    authScopes: { authenticated: true },
    args: evaluationArgs,
    subscribe: async (_root, args, ctx) => {
      const context = toEvaluationContext(args.context);
      await playgroundState(ctx, args.environment, args.projects); // refuses an unknown environment now
      const draw = String(randomInt(1, 10_001));
      const evaluate = async () =>
        evaluatePlayground(await playgroundState(ctx, args.environment, args.projects), context, args.flags, {
          random: () => draw,
        });
      // Events are only wake-ups here (none is delivered): any change may alter an answer.
      const changes = followEvents(ctx.db, feedFor(ctx), { where: {}, accept: () => true });
      return changedEvaluations(withCurrentFirst(changes), evaluate);
    },
    resolve: (flags) => flags,
  }),
);
