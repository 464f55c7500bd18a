import type { ClientSnapshot } from "../client-features/client-features.cache.ts";
import type { EvaluationContext } from "../evaluation/client-features.types.ts";
import { SDK_CONTEXT_FIELDS } from "../evaluation/context-value.logic.ts";
import { evaluateAll, evaluateFlag, type FlagEvaluation } from "../evaluation/engine.logic.ts";

/**
 * A frontend context from the query string (`userId=…&properties[plan]=pro`, as
 * unleash-proxy-client sends it) or a POST body's `context`; other fields become properties.
 * The caller's address is the `remoteAddress` unless the context gives one.
 */
export function frontendContext(source: URLSearchParams | unknown, address: string): EvaluationContext {
  const flat: Record<string, string> = {};
  const properties: Record<string, string> = {};
  const add = (key: string, value: unknown) => {
    if (value === null || value === undefined || typeof value === "object") return;
    const property = /^properties\[(.+)\]$/.exec(key)?.[1];
    if (property) properties[property] = String(value);
    else if (SDK_CONTEXT_FIELDS.has(key)) flat[key] = String(value);
    else properties[key] = String(value);
  };
  if (source instanceof URLSearchParams) {
    for (const [key, value] of source) add(key, value);
  } else if (typeof source === "object" && source !== null) {
    const { properties: nested, ...rest } = source as Record<string, unknown>;
    for (const [key, value] of Object.entries(rest)) add(key, value);
    if (typeof nested === "object" && nested !== null) {
      for (const [key, value] of Object.entries(nested)) add(`properties[${key}]`, value);
    }
  }
  if (!flat.remoteAddress && address !== "in-process") flat.remoteAddress = address;
  return { ...flat, properties };
}

export type FrontendToggle = {
  name: string;
  enabled: true;
  impressionData: boolean;
  variant: {
    name: string;
    enabled: boolean;
    payload?: { type: string; value: string };
    feature_enabled: boolean;
    featureEnabled: boolean;
  };
};

function toggleOf(evaluation: FlagEvaluation): FrontendToggle {
  const { name, enabled, payload, feature_enabled, featureEnabled } = evaluation.variant;
  return {
    name: evaluation.name,
    enabled: true,
    impressionData: evaluation.impressionData,
    variant: { name, enabled, ...(payload ? { payload } : {}), feature_enabled, featureEnabled },
  };
}

/** Unleash's frontend answer: the flags that are on for the context, with their variants. */
export function frontendToggles(snapshot: ClientSnapshot, context: EvaluationContext): FrontendToggle[] {
  return evaluateAll(snapshot.sdkCompiled(), context, { explain: false })
    .filter((evaluation) => evaluation.enabled)
    .map(toggleOf);
}

/** One flag for the context, or undefined when it is off or unknown (Unleash answers 404). */
export function frontendToggle(
  snapshot: ClientSnapshot,
  name: string,
  context: EvaluationContext,
): FrontendToggle | undefined {
  const compiled = snapshot.sdkCompiled();
  if (!compiled.features.has(name)) return undefined;
  const evaluation = evaluateFlag(compiled, name, context, { explain: false });
  return evaluation.enabled ? toggleOf(evaluation) : undefined;
}
