import type { StoredEvent } from "../../events/types.ts";
import type { PlaygroundFlag } from "./playground.logic.ts";

/** What a frontend sees of a flag; a message goes out only when this changes. */
function digestOf(flags: PlaygroundFlag[]): string {
  return JSON.stringify(
    flags.map((f) => [f.name, f.enabled, f.variant.name, f.variant.payload ?? null, f.impressionData]),
  );
}

/**
 * The evaluations first, then again after each committed change that alters any flag's
 * result, variant or impression setting for the context (other changes send nothing).
 * Hand-written, like the live stream it reads, so that `return()` ends it at once.
 */
export function changedEvaluations(
  stream: AsyncIterator<StoredEvent | null>,
  evaluate: () => Promise<PlaygroundFlag[]>,
): AsyncIterableIterator<PlaygroundFlag[]> {
  let last: string | undefined;
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      for (;;) {
        const item = await stream.next();
        if (item.done) return { value: undefined, done: true };
        const flags = await evaluate();
        const digest = digestOf(flags);
        if (digest !== last) {
          last = digest;
          return { value: flags, done: false };
        }
      }
    },
    async return() {
      await stream.return?.();
      return { value: undefined, done: true };
    },
  };
}
