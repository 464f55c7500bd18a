import { LRUCache } from "lru-cache";
import { etagOf } from "../../http/etag.ts";
import type { EvaluationContext } from "../evaluation/client-features.types.ts";
import type { ClientSnapshot } from "./client-features.cache.ts";

/** An evaluated answer ready to send: its JSON and ETag. */
export type ContextAnswer = { json: string; etag: string };

/**
 * The app's evaluated answers per snapshot, kind (frontend toggles, OFREP bulk, ...) and
 * context: browser and OpenFeature providers poll every few seconds with the same context, and
 * the configuration changes far less often. Random stickiness is therefore drawn once per
 * context and configuration. A snapshot's answers are forgotten with it; of one snapshot's, the
 * least recently asked context goes first.
 */
export type ContextAnswers = {
  /** The answer of one kind for a context, built once per snapshot and context. */
  answer(
    snapshot: ClientSnapshot,
    kind: string,
    context: EvaluationContext,
    build: () => unknown,
  ): ContextAnswer;
};

/** Contexts whose answers are kept per snapshot and kind (a polling SDK asks with the same one). */
const MAX_CONTEXTS = 5_000;

export function createContextAnswers(): ContextAnswers {
  const answers = new WeakMap<ClientSnapshot, LRUCache<string, ContextAnswer>>();
  return {
    answer(snapshot, kind, context, build) {
      let byContext = answers.get(snapshot);
      if (!byContext) {
        byContext = new LRUCache({ max: MAX_CONTEXTS });
        answers.set(snapshot, byContext);
      }
      const key = `${kind}\n${contextKey(context)}`;
      let answer = byContext.get(key);
      if (!answer) {
        const json = JSON.stringify(build());
        answer = { json, etag: etagOf(json) };
        byContext.set(key, answer);
      }
      return answer;
    },
  };
}

/** The same context, whatever the order its fields came in. */
function contextKey(context: EvaluationContext): string {
  const { properties, ...fields } = context;
  const sorted = (o: object) => Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([sorted(fields), sorted(properties ?? {})]);
}
