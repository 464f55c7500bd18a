/**
 * OpenFeature Remote Evaluation Protocol (OFREP, open-feature/protocol `service/openapi.yaml`,
 * version 0.1.0) answers from the evaluation engine's verdicts. Pure: no I/O.
 */
import type {
  ClientFeature,
  ClientStrategy,
  EvaluationContext,
} from "../evaluation/client-features.types.ts";
import { SDK_CONTEXT_FIELDS } from "../evaluation/context-value.logic.ts";
import {
  type CompiledState,
  type EngineOptions,
  evaluateFlag,
  type FlagEvaluation,
  type StrategyEvaluation,
} from "../evaluation/engine.logic.ts";

export type OfrepErrorCode =
  | "PARSE_ERROR"
  | "TARGETING_KEY_MISSING"
  | "INVALID_CONTEXT"
  | "GENERAL"
  | "FLAG_NOT_FOUND";

/** A refusal in the protocol's shape; `status` is the HTTP status it goes with. */
export class OfrepError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: OfrepErrorCode,
    message: string,
    /** The flag the error is about, when one is. */
    readonly key?: string,
    /** Seconds to wait (429). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export type OfrepSuccess = {
  key: string;
  /** Absent: "use the default in your code" (protocol ADR 0006), for a variant flag that is off. */
  value?: boolean | string | number | object;
  reason: "STATIC" | "TARGETING_MATCH" | "SPLIT" | "DISABLED" | "DEFAULT";
  variant: string;
  metadata: Record<string, string | number | boolean>;
};

/**
 * An OpenFeature evaluation context as the engine's: `targetingKey` is the user id (the default
 * stickiness), the SDK's own field names keep their meaning, and every other attribute is a
 * context property. Values are strings, numbers or booleans; a nested value is INVALID_CONTEXT.
 */
export function toEngineContext(body: unknown): EvaluationContext {
  if (body === undefined || body === null) return {};
  if (typeof body !== "object" || Array.isArray(body)) {
    throw new OfrepError(400, "PARSE_ERROR", "The request body must be a JSON object.");
  }
  const context = (body as { context?: unknown }).context;
  if (context === undefined || context === null) return {};
  if (typeof context !== "object" || Array.isArray(context)) {
    throw new OfrepError(400, "INVALID_CONTEXT", "context must be an object.");
  }
  const engine: EvaluationContext = {};
  const properties: Record<string, string> = {};
  for (const [key, value] of Object.entries(context)) {
    if (value === null || value === undefined) continue;
    if (typeof value === "object") {
      throw new OfrepError(400, "INVALID_CONTEXT", `context.${key} must be a string, number or boolean.`);
    }
    const text = String(value);
    if (key === "targetingKey") engine.userId = text;
    else if (SDK_CONTEXT_FIELDS.has(key)) engine[key] = text;
    else properties[key] = text;
  }
  return Object.keys(properties).length > 0 ? { ...engine, properties } : engine;
}

/** One flag for one context; a flag not in the configuration is FLAG_NOT_FOUND (404). */
export function evaluateForOfrep(
  compiled: CompiledState,
  key: string,
  context: EvaluationContext,
  options: EngineOptions = {},
): OfrepSuccess {
  const feature = compiled.features.get(key);
  if (!feature) {
    throw new OfrepError(
      404,
      "FLAG_NOT_FOUND",
      `Flag "${key}" is not in this token's projects and environment.`,
      key,
    );
  }
  return ofrepAnswer(evaluateFlag(compiled, key, context, { ...options, explain: false }), feature.source);
}

/** Every flag of the configuration for one context (the bulk evaluation). */
export function evaluateEveryForOfrep(compiled: CompiledState, context: EvaluationContext): OfrepSuccess[] {
  const answers: OfrepSuccess[] = [];
  for (const key of compiled.features.keys()) answers.push(evaluateForOfrep(compiled, key, context));
  return answers;
}

/**
 * One flag's answer. A flag without variants answers its on/off state as a boolean; a flag
 * with variants answers the chosen variant's payload (string, number, or the parsed JSON
 * object; a variant without payload answers its name). Reasons: DISABLED when the flag is off
 * in the environment, DEFAULT when no strategy or dependency lets it on, SPLIT when a
 * percentage or a variant weight decided, TARGETING_MATCH when constraints, segments, a user
 * list or an override did, STATIC otherwise.
 */
export function ofrepAnswer(evaluation: FlagEvaluation, feature: ClientFeature): OfrepSuccess {
  const { hasVariants, project, type, impressionData } = staticPartOf(feature);
  const reason = reasonOf(evaluation, feature);
  const metadata: OfrepSuccess["metadata"] = { project, type, impressionData, enabled: evaluation.enabled };
  if (evaluation.reason.kind === "strategy-matched") metadata.strategy = evaluation.reason.strategy.name;
  const key = evaluation.name;
  if (!hasVariants) {
    return { key, reason, metadata, value: evaluation.enabled, variant: evaluation.enabled ? "on" : "off" };
  }
  const variant = evaluation.variant;
  if (!variant.enabled) return { key, reason, metadata, variant: variant.name };
  return { key, reason, metadata, value: payloadValue(variant.name, variant.payload), variant: variant.name };
}

type StaticPart = { hasVariants: boolean; project: string; type: string; impressionData: boolean };

/** What a flag's answers share whatever the context, worked out once per configuration. */
const staticParts = new WeakMap<ClientFeature, StaticPart>();

function staticPartOf(feature: ClientFeature): StaticPart {
  let part = staticParts.get(feature);
  if (!part) {
    part = {
      hasVariants: (feature.variants?.length ?? 0) > 0 || strategiesHaveVariants(feature),
      project: feature.project ?? "",
      type: feature.type ?? "release",
      impressionData: Boolean(feature.impressionData),
    };
    staticParts.set(feature, part);
  }
  return part;
}

function strategiesHaveVariants(feature: ClientFeature): boolean {
  return (feature.strategies ?? []).some((s) => (s.variants?.length ?? 0) > 0);
}

function payloadValue(name: string, payload: { type: string; value: string } | undefined) {
  if (!payload) return name;
  if (payload.type === "number") {
    const n = Number(payload.value);
    return Number.isFinite(n) ? n : payload.value;
  }
  if (payload.type === "json") {
    try {
      const parsed: unknown = JSON.parse(payload.value);
      return typeof parsed === "object" && parsed !== null ? parsed : payload.value;
    } catch {
      return payload.value;
    }
  }
  return payload.value;
}

function reasonOf(evaluation: FlagEvaluation, feature: ClientFeature): OfrepSuccess["reason"] {
  const why = evaluation.reason;
  if (why.kind === "flag-disabled") return "DISABLED";
  if (why.kind !== "strategy-matched" && why.kind !== "no-strategies") return "DEFAULT";
  const rule = evaluation.variantRule;
  if (rule?.kind === "override") return "TARGETING_MATCH";
  if (rule?.kind === "weight" && weightedVariants(feature, evaluation) > 1) return "SPLIT";
  if (why.kind === "no-strategies") return "STATIC";
  return strategyReason(why.strategy, feature.strategies?.[why.strategy.index]);
}

/** How many variants with a weight the chosen variant was drawn from. */
function weightedVariants(feature: ClientFeature, evaluation: FlagEvaluation): number {
  const why = evaluation.reason;
  const fromStrategy = evaluation.variantRule?.source === "strategy" && why.kind === "strategy-matched";
  const variants = fromStrategy ? feature.strategies?.[why.strategy.index]?.variants : feature.variants;
  return (variants ?? []).filter((v) => v.weight > 0).length;
}

const TARGETING_STRATEGIES = new Set(["userWithId", "remoteAddress", "applicationHostname"]);

function strategyReason(
  strategy: StrategyEvaluation,
  source: ClientStrategy | undefined,
): OfrepSuccess["reason"] {
  const rollout = strategy.rule?.rollout;
  if (rollout && rollout.percentage < 100) return "SPLIT";
  if ((source?.constraints?.length ?? 0) > 0 || (source?.segments?.length ?? 0) > 0) return "TARGETING_MATCH";
  if (TARGETING_STRATEGIES.has(strategy.name)) return "TARGETING_MATCH";
  return "STATIC";
}
