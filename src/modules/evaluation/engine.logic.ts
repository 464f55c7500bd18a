/**
 * The evaluation engine: Unleash's client-features configuration + a context -> enabled,
 * variant and why. Pure (no I/O); the same answers as the official SDKs (the client
 * specification's cases run against it in test/evaluation).
 *
 *   const compiled = compileState(clientFeatures);            // once per configuration
 *   evaluateFlag(compiled, "checkout", { userId: "42" });      // one flag
 *   evaluateAll(compiled, context);                            // every flag
 */
import type {
  ClientFeature,
  ClientFeaturesState,
  ClientSegment,
  ClientStrategy,
  ClientVariant,
  DeltaEvent,
  EvaluationContext,
  VariantPayload,
} from "./client-features.types.ts";
import {
  type CompiledConstraint,
  type ConstraintResult,
  compileConstraint,
  describeConstraint,
} from "./constraints.logic.ts";
import { runStrategyRule, type StrategyOptions, type StrategyRuleResult } from "./strategies.logic.ts";
import { type ChosenVariant, selectVariant, type VariantRule } from "./variants.logic.ts";

type CompiledSegment = { id: number; name?: string; constraints: CompiledConstraint[] };

type CompiledStrategy = {
  index: number;
  source: ClientStrategy;
  parameters: Record<string, string>;
  constraints: CompiledConstraint[];
  /** Segment ids in order; a missing segment fails the strategy (as the SDKs). */
  segments: number[];
};

type CompiledFeature = { source: ClientFeature; strategies: CompiledStrategy[] };

export type CompiledState = {
  features: Map<string, CompiledFeature>;
  segments: Map<number, CompiledSegment>;
};

export type SegmentResult = { id: number; name?: string; result: boolean; constraints: ConstraintResult[] };

/** One strategy's evaluation, in the order the flag lists them. */
export type StrategyEvaluation = {
  index: number;
  id?: string;
  name: string;
  title?: string | null;
  parameters: Record<string, string>;
  /** false: the strategy is disabled and was skipped. */
  active: boolean;
  result: boolean;
  constraints: ConstraintResult[];
  segments: SegmentResult[];
  rule?: StrategyRuleResult;
};

/** Why a flag evaluated as it did. */
export type EvaluationReason =
  | { kind: "unknown-flag" }
  | { kind: "dependency-not-satisfied"; parent: string; required: { enabled: boolean; variants?: string[] } }
  | { kind: "flag-disabled" }
  | { kind: "no-strategies" }
  | { kind: "strategy-matched"; strategy: StrategyEvaluation; evaluated: StrategyEvaluation[] }
  | { kind: "no-strategy-matched"; evaluated: StrategyEvaluation[] };

export type EvaluatedVariant = {
  name: string;
  enabled: boolean;
  payload?: VariantPayload;
  feature_enabled: boolean;
  featureEnabled: boolean;
};

export type FlagEvaluation = {
  name: string;
  enabled: boolean;
  variant: EvaluatedVariant;
  impressionData: boolean;
  reason: EvaluationReason;
  /** How the variant was chosen, when one was: from the matched strategy or the flag's list. */
  variantRule?: VariantRule & { source: "strategy" | "flag" };
};

/**
 * `explain: false` skips building the per-constraint and per-strategy explanation (the
 * SDK-facing APIs need only the verdicts; the playground wants the why). Default: true.
 * `everyStrategy: true` (with explain) also evaluates the strategies after the one that
 * matched, for display; the verdict is still the first match's.
 */
export type EngineOptions = Partial<StrategyOptions> & { explain?: boolean; everyStrategy?: boolean };

type Resolved = StrategyOptions & { explain: boolean; everyStrategy: boolean };

const defaultRandom = () => String(Math.round(Math.random() * 10000) + 1);

function resolveOptions(options: EngineOptions): Resolved {
  return {
    random: options.random ?? defaultRandom,
    hostname: (options.hostname ?? "undefined").toLowerCase(),
    explain: options.explain ?? true,
    everyStrategy: (options.explain ?? true) && Boolean(options.everyStrategy),
  };
}

/** Applies delta events (hydration, feature and segment updates/removals) to a state. */
export function applyDelta(state: ClientFeaturesState, events: DeltaEvent[]): ClientFeaturesState {
  const features = new Map(state.features.map((f) => [f.name, f]));
  const segments = new Map((state.segments ?? []).map((s) => [s.id, s]));
  for (const event of events) {
    if (event.type === "hydration") {
      features.clear();
      segments.clear();
      for (const f of event.features) features.set(f.name, f);
      for (const s of event.segments ?? []) segments.set(s.id, s);
    } else if (event.type === "feature-updated") features.set(event.feature.name, event.feature);
    else if (event.type === "feature-removed") features.delete(event.featureName);
    else if (event.type === "segment-updated") segments.set(event.segment.id, event.segment);
    else if (event.type === "segment-removed") segments.delete(event.segmentId);
  }
  return { ...state, features: [...features.values()], segments: [...segments.values()] };
}

function compileStrategy(source: ClientStrategy, index: number): CompiledStrategy {
  return {
    index,
    source,
    parameters: source.parameters ?? {},
    constraints: (source.constraints ?? []).filter(Boolean).map(compileConstraint),
    segments: source.segments ?? [],
  };
}

function compileSegment(source: ClientSegment): CompiledSegment {
  return { id: source.id, name: source.name, constraints: (source.constraints ?? []).map(compileConstraint) };
}

/** Prepares a configuration once: flags by name, segments by id, every constraint parsed. */
export function compileState(state: ClientFeaturesState | { events: DeltaEvent[] }): CompiledState {
  const plain = "events" in state ? applyDelta({ features: [] }, state.events) : state;
  return {
    features: new Map(
      plain.features.map((f) => [
        f.name,
        { source: f, strategies: (f.strategies ?? []).map(compileStrategy) },
      ]),
    ),
    segments: new Map((plain.segments ?? []).map((s) => [s.id, compileSegment(s)])),
  };
}

const NONE: ConstraintResult[] = [];

function checkConstraints(constraints: CompiledConstraint[], context: EvaluationContext, explain: boolean) {
  // Stops at the first failing constraint: the ones after it were not evaluated.
  const results: ConstraintResult[] = explain ? [] : NONE;
  for (const c of constraints) {
    const matched: boolean = c.matches(context);
    if (explain) results.push(describeConstraint(c, context, matched));
    if (!matched) return { ok: false, results };
  }
  return { ok: true, results };
}

function evaluateStrategy(
  compiled: CompiledState,
  s: CompiledStrategy,
  context: EvaluationContext,
  options: Resolved,
): StrategyEvaluation {
  const base = {
    index: s.index,
    id: s.source.id,
    name: s.source.name,
    title: s.source.title,
    parameters: s.parameters,
  };
  if (s.source.disabled) return { ...base, active: false, result: false, constraints: [], segments: [] };
  const own = checkConstraints(s.constraints, context, options.explain);
  const segments: SegmentResult[] = [];
  let ok = own.ok;
  for (const id of s.segments) {
    if (!ok) break;
    const segment = compiled.segments.get(id);
    const checked = segment
      ? checkConstraints(segment.constraints, context, options.explain)
      : { ok: false, results: NONE };
    if (options.explain)
      segments.push({ id, name: segment?.name, result: checked.ok, constraints: checked.results });
    ok = checked.ok;
  }
  if (!ok) return { ...base, active: true, result: false, constraints: own.results, segments };
  const rule = runStrategyRule(s.source.name, s.parameters, context, options);
  return { ...base, active: true, result: rule.enabled, constraints: own.results, segments, rule };
}

type EnabledResult = { enabled: boolean; reason: EvaluationReason; strategy?: CompiledStrategy };

function parentSatisfied(
  compiled: CompiledState,
  dependency: NonNullable<ClientFeature["dependencies"]>[number],
  context: EvaluationContext,
  options: Resolved,
): boolean {
  const parent = compiled.features.get(dependency.feature);
  // Only one level of dependencies, as the SDKs: a parent that has parents never satisfies.
  if (!parent || parent.source.dependencies?.length) return false;
  const evaluation = evaluate(compiled, parent, context, options);
  if (dependency.enabled === false) return !evaluation.enabled;
  if (dependency.variants?.length) {
    return evaluation.variant.feature_enabled && dependency.variants.includes(evaluation.variant.name);
  }
  return evaluation.enabled;
}

function isEnabled(
  compiled: CompiledState,
  feature: CompiledFeature,
  context: EvaluationContext,
  options: Resolved,
): EnabledResult {
  for (const dependency of feature.source.dependencies ?? []) {
    if (!parentSatisfied(compiled, dependency, context, options)) {
      const required = {
        enabled: dependency.enabled !== false,
        ...(dependency.variants?.length ? { variants: dependency.variants } : {}),
      };
      return {
        enabled: false,
        reason: { kind: "dependency-not-satisfied", parent: dependency.feature, required },
      };
    }
  }
  if (!feature.source.enabled) return { enabled: false, reason: { kind: "flag-disabled" } };
  if (feature.strategies.length === 0) return { enabled: true, reason: { kind: "no-strategies" } };
  const evaluated: StrategyEvaluation[] = [];
  let matched: { strategy: CompiledStrategy; evaluation: StrategyEvaluation } | undefined;
  for (const s of feature.strategies) {
    const evaluation = evaluateStrategy(compiled, s, context, options);
    if (options.explain) evaluated.push(evaluation);
    if (evaluation.result && !matched) {
      matched = { strategy: s, evaluation };
      if (!options.everyStrategy) break;
    }
  }
  if (!matched) return { enabled: false, reason: { kind: "no-strategy-matched", evaluated } };
  return {
    enabled: true,
    strategy: matched.strategy,
    reason: { kind: "strategy-matched", strategy: matched.evaluation, evaluated },
  };
}

const DISABLED_VARIANT = { name: "disabled", enabled: false } as const;

function withVariant(chosen: ChosenVariant, source: "strategy" | "flag") {
  return {
    variant: { name: chosen.name, enabled: true, ...(chosen.payload ? { payload: chosen.payload } : {}) },
    variantRule: { ...chosen.rule, source },
  };
}

function chooseVariant(
  feature: CompiledFeature,
  result: EnabledResult,
  context: EvaluationContext,
  options: Resolved,
) {
  const strategyVariants = result.strategy?.source.variants;
  if (result.strategy && strategyVariants?.length) {
    const p = result.strategy.parameters;
    const chosen = selectVariant(String(p.groupId), p.stickiness, strategyVariants, context, options.random);
    if (chosen) return withVariant(chosen, "strategy");
  }
  const flagVariants: ClientVariant[] = feature.source.variants ?? [];
  if (flagVariants.length === 0) return null;
  const chosen = selectVariant(feature.source.name, undefined, flagVariants, context, options.random);
  return chosen ? withVariant(chosen, "flag") : null;
}

function evaluate(
  compiled: CompiledState,
  feature: CompiledFeature,
  context: EvaluationContext,
  options: Resolved,
): FlagEvaluation {
  const result = isEnabled(compiled, feature, context, options);
  const base = {
    name: feature.source.name,
    enabled: result.enabled,
    impressionData: Boolean(feature.source.impressionData),
    reason: result.reason,
  };
  const flags = { feature_enabled: result.enabled, featureEnabled: result.enabled };
  const picked = result.enabled ? chooseVariant(feature, result, context, options) : null;
  if (!picked) return { ...base, variant: { ...DISABLED_VARIANT, ...flags } };
  return { ...base, variant: { ...picked.variant, ...flags }, variantRule: picked.variantRule };
}

/** One flag for one context; an unknown flag is disabled with reason `unknown-flag`. */
export function evaluateFlag(
  compiled: CompiledState,
  name: string,
  context: EvaluationContext,
  options: EngineOptions = {},
): FlagEvaluation {
  const feature = compiled.features.get(name);
  if (!feature) {
    return {
      name,
      enabled: false,
      impressionData: false,
      variant: { ...DISABLED_VARIANT, feature_enabled: false, featureEnabled: false },
      reason: { kind: "unknown-flag" },
    };
  }
  return evaluate(compiled, feature, context, resolveOptions(options));
}

/** Every flag of the configuration for one context, in the configuration's order. */
export function evaluateAll(
  compiled: CompiledState,
  context: EvaluationContext,
  options: EngineOptions = {},
): FlagEvaluation[] {
  const resolved = resolveOptions(options);
  return [...compiled.features.values()].map((feature) => evaluate(compiled, feature, context, resolved));
}

/**
 * Every strategy of a flag for one context, explained, whatever the flag's toggle and
 * dependencies say: what the flag would do if it were on (the playground shows this for
 * flags that are off in the environment).
 */
export function explainStrategies(
  compiled: CompiledState,
  name: string,
  context: EvaluationContext,
  options: EngineOptions = {},
): StrategyEvaluation[] {
  const feature = compiled.features.get(name);
  if (!feature) return [];
  const resolved = resolveOptions({ ...options, explain: true });
  return feature.strategies.map((s) => evaluateStrategy(compiled, s, context, resolved));
}
