import type { ClientSnapshot } from "../client-features/client-features.cache.ts";
import type { ContextAnswer, ContextAnswers } from "../client-features/context-answers.cache.ts";
import type { EvaluationContext } from "../evaluation/client-features.types.ts";
import { frontendToggles } from "./frontend.logic.ts";

// Not in frontend.logic.ts: the answer is remembered in this node's memory (context-answers.cache.ts).

/** The `/api/frontend` answer for a context, evaluated once per configuration and context. */
export function frontendAnswer(
  answers: ContextAnswers,
  snapshot: ClientSnapshot,
  context: EvaluationContext,
): ContextAnswer {
  return answers.answer(snapshot, "frontend", context, () => ({
    toggles: frontendToggles(snapshot, context),
  }));
}
