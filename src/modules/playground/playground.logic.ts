/**
 * The playground: every flag of an environment evaluated for one context, with the why.
 * Pure: takes a compiled configuration (the same one the SDK-facing APIs serve) and a
 * context; no I/O.
 */
import type { ClientFeature, ClientVariant, EvaluationContext } from "../evaluation/client-features.types.ts";
import {
  type CompiledState,
  type EngineOptions,
  type EvaluatedVariant,
  type EvaluationReason,
  evaluateFlag,
  explainStrategies,
  type FlagEvaluation,
  type StrategyEvaluation,
} from "../evaluation/engine.logic.ts";
import { isKnownStrategy } from "../evaluation/strategies.logic.ts";

export type PlaygroundFlag = {
  name: string;
  /** null for a flag the configuration does not know. */
  project: string | null;
  enabled: boolean;
  variant: EvaluatedVariant;
  impressionData: boolean;
  /** The flag's own toggle in the environment (Unleash's isEnabledInCurrentEnvironment). */
  onInEnvironment: boolean;
  reason: EvaluationReason;
  /** Every strategy, explained; for a flag that is off, what they would say were it on. */
  strategies: StrategyEvaluation[];
  variantRule: FlagEvaluation["variantRule"] | null;
  /** The flag's variants in this environment. */
  variants: ClientVariant[];
};

/** Evaluates the named flags (default: all, in the configuration's order) for one context. */
export function evaluatePlayground(
  compiled: CompiledState,
  context: EvaluationContext,
  flags?: readonly string[] | null,
  options: EngineOptions = {},
): PlaygroundFlag[] {
  const names = flags ?? [...compiled.features.keys()];
  return names.map((name) => explainFlag(compiled, name, context, options));
}

function explainFlag(
  compiled: CompiledState,
  name: string,
  context: EvaluationContext,
  options: EngineOptions,
): PlaygroundFlag {
  const source: ClientFeature | undefined = compiled.features.get(name)?.source;
  const result = evaluateFlag(compiled, name, context, { ...options, everyStrategy: true });
  return {
    name,
    project: source?.project ?? null,
    enabled: result.enabled,
    variant: result.variant,
    impressionData: result.impressionData,
    onInEnvironment: source?.enabled ?? false,
    reason: result.reason,
    strategies: strategiesOf(compiled, result, context, options),
    variantRule: result.variantRule ?? null,
    variants: source?.variants ?? [],
  };
}

function strategiesOf(
  compiled: CompiledState,
  result: FlagEvaluation,
  context: EvaluationContext,
  options: EngineOptions,
): StrategyEvaluation[] {
  const reason = result.reason;
  if (reason.kind === "strategy-matched" || reason.kind === "no-strategy-matched") return reason.evaluated;
  return explainStrategies(compiled, result.name, context, options);
}

/** The strategy that decided the flag, if one did. */
export function matchedStrategy(flag: PlaygroundFlag): StrategyEvaluation | null {
  return flag.reason.kind === "strategy-matched" ? flag.reason.strategy : null;
}

export type EvaluationStatus = "complete" | "incomplete" | "unevaluated";

/**
 * How far the playground could evaluate a strategy: a disabled one is skipped; a custom one
 * whose constraints and segments all hold depends on code only SDKs that implement it run.
 */
export function evaluationStatus(s: StrategyEvaluation): EvaluationStatus {
  if (!s.active) return "unevaluated";
  const ruleReached = s.constraints.every((c) => c.result) && s.segments.every((g) => g.result);
  return !isKnownStrategy(s.name) && ruleReached ? "incomplete" : "complete";
}

export type StrategiesOutcome = "on" | "off" | "unknown";

/** The strategies' joint answer: on when one evaluated on, unknown when one could not be evaluated. */
export function strategiesOutcome(strategies: readonly StrategyEvaluation[]): StrategiesOutcome {
  const statuses = strategies.map(evaluationStatus);
  if (strategies.some((s, i) => statuses[i] === "complete" && s.result)) return "on";
  return statuses.includes("incomplete") ? "unknown" : "off";
}

/** Context values as the GraphQL input gives them (strings, numbers, booleans, a date). */
export type ContextValues = { [field: string]: unknown; properties?: Record<string, unknown> | null };

/** Combinations past this are refused (Unleash's advanced playground limit). */
export const MAX_COMBINATIONS = 100;

/**
 * Every combination of a context's lists: a string value holding commas is a list (Unleash's
 * advanced playground rule; values are trimmed and empty items dropped), properties included.
 * Returns null past `MAX_COMBINATIONS`.
 */
export function contextCombinations(context: ContextValues): ContextValues[] | null {
  const { properties, ...fields } = context;
  let combinations: { fields: Record<string, unknown>; properties: Record<string, unknown> }[] = [
    { fields: {}, properties: {} },
  ];
  const entries = [
    ...Object.entries(fields).map(([key, value]) => ({ key, value, inProperties: false })),
    ...Object.entries(properties ?? {}).map(([key, value]) => ({ key, value, inProperties: true })),
  ];
  for (const { key, value, inProperties } of entries) {
    const options = typeof value === "string" ? listItems(value) : [value];
    combinations = combinations.flatMap((c) =>
      options.map((option) =>
        inProperties
          ? { ...c, properties: { ...c.properties, [key]: option } }
          : { ...c, fields: { ...c.fields, [key]: option } },
      ),
    );
    if (combinations.length > MAX_COMBINATIONS) return null;
  }
  const withProperties = properties !== undefined && properties !== null;
  return combinations.map((c) => (withProperties ? { ...c.fields, properties: c.properties } : c.fields));
}

function listItems(value: string): string[] {
  const items = value
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
  return items.length > 0 ? items : [value];
}
