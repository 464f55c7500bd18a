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
