import { etagOf } from "../../http/etag.ts";
import type { EvaluationContext } from "../evaluation/client-features.types.ts";
import type { ClientSnapshot } from "./client-features.cache.ts";

/** An evaluated answer ready to send: its JSON and ETag. */
export type ContextAnswer = { json: string; etag: string };

/** Contexts whose answers are kept per snapshot and kind (a polling SDK asks with the same one). */
const MAX_CONTEXTS = 5_000;
const answers = new WeakMap<ClientSnapshot, Map<string, ContextAnswer>>();

/**
 * The answer of one kind (frontend toggles, OFREP bulk, ...) for a context, built once per
 * snapshot and context: browser and OpenFeature providers poll every few seconds with the
 * same context, and the configuration changes far less often. Random stickiness is therefore
 * drawn once per context and configuration. The oldest context is forgotten first.
 */
export function answerForContext(
  snapshot: ClientSnapshot,
  kind: string,
  context: EvaluationContext,
  build: () => unknown,
): ContextAnswer {
  let byContext = answers.get(snapshot);
  if (!byContext) {
    byContext = new Map();
    answers.set(snapshot, byContext);
  }
  const key = `${kind}\n${contextKey(context)}`;
  let answer = byContext.get(key);
  if (!answer) {
    if (byContext.size >= MAX_CONTEXTS) byContext.delete(byContext.keys().next().value as string);
    const json = JSON.stringify(build());
    answer = { json, etag: etagOf(json) };
    byContext.set(key, answer);
  }
  return answer;
}

/** The same context, whatever the order its fields came in. */
function contextKey(context: EvaluationContext): string {
  const { properties, ...fields } = context;
  const sorted = (o: object) => Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([sorted(fields), sorted(properties ?? {})]);
}
