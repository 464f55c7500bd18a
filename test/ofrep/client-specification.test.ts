import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { EvaluationContext } from "../../src/modules/evaluation/client-features.types.ts";
import { compileState } from "../../src/modules/evaluation/engine.logic.ts";
import { evaluateForOfrep, toEngineContext } from "../../src/modules/ofrep/ofrep-answer.logic.ts";

/**
 * The client specification's cases through OFREP's side of the engine: each SDK context is
 * sent as an OpenFeature context (userId as targetingKey, properties as attributes) and the
 * OFREP answer must carry the SDKs' verdict (`metadata.enabled`, the boolean value of a flag
 * without variants) and their variant (its name, and its payload as the typed value).
 */
const require = createRequire(import.meta.url);
const specDir = join(
  dirname(require.resolve("@unleash/client-specification/package.json")),
  "specifications",
);
const files = JSON.parse(readFileSync(join(specDir, "index.json"), "utf8")) as string[];

type Case = { description: string; context: EvaluationContext; toggleName: string; expectedResult: unknown };
type Spec = { state: Parameters<typeof compileState>[0]; tests?: Case[]; variantTests?: Case[] };

/** An SDK context as an OpenFeature provider would send it. */
function asOpenFeatureContext(context: EvaluationContext): Record<string, unknown> {
  const { userId, properties, ...rest } = context;
  return { ...(userId !== undefined ? { targetingKey: userId } : {}), ...rest, ...(properties ?? {}) };
}

const options = { random: () => "42", hostname: "localhost" };

for (const file of files) {
  const spec = JSON.parse(readFileSync(join(specDir, file), "utf8")) as Spec;
  const compiled = compileState(spec.state);
  const answer = (test: Case) => {
    const context = toEngineContext({ context: asOpenFeatureContext(test.context) });
    if (!compiled.features.has(test.toggleName)) return null;
    return evaluateForOfrep(compiled, test.toggleName, context, options);
  };
  describe(file, () => {
    for (const test of spec.tests ?? []) {
      it(test.description, () => {
        const result = answer(test);
        // An unknown flag is FLAG_NOT_FOUND over OFREP; the SDKs answer false.
        if (result === null) return expect(test.expectedResult).toBe(false);
        expect(result.metadata.enabled).toBe(test.expectedResult);
        if (typeof result.value === "boolean") expect(result.value).toBe(test.expectedResult);
      });
    }
    for (const test of spec.variantTests ?? []) {
      it(`variant: ${test.description}`, () => {
        const expected = test.expectedResult as {
          name: string;
          enabled: boolean;
          feature_enabled?: boolean;
          payload?: { type: string; value: string };
        };
        const result = answer(test);
        if (result === null) return expect(expected.enabled).toBe(false);
        if (!expected.enabled) {
          // No variant: a flag without variants answers its state, one with variants the code default.
          expect(["on", "off", "disabled"]).toContain(result.variant);
          if (typeof result.value !== "boolean") expect(result.value).toBeUndefined();
          if (expected.feature_enabled !== undefined)
            expect(result.metadata.enabled).toBe(expected.feature_enabled);
          return;
        }
        expect(result.variant).toBe(expected.name);
        const payload = expected.payload;
        if (!payload) return expect(result.value).toBe(expected.name);
        const typed =
          payload.type === "number"
            ? Number(payload.value)
            : payload.type === "json"
              ? JSON.parse(payload.value)
              : payload.value;
        expect(result.value).toEqual(typed);
      });
    }
  });
}
