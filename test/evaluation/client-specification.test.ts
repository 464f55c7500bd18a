import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { EvaluationContext } from "../../src/modules/evaluation/client-features.types.ts";
import { compileState, evaluateFlag } from "../../src/modules/evaluation/engine.logic.ts";

/**
 * Every case of every specification file of @unleash/client-specification (the list the
 * package itself publishes), run through the engine: the answers the official SDKs give.
 */
const require = createRequire(import.meta.url);
const specDir = join(
  dirname(require.resolve("@unleash/client-specification/package.json")),
  "specifications",
);
const files = JSON.parse(readFileSync(join(specDir, "index.json"), "utf8")) as string[];

type Spec = {
  name: string;
  state: Parameters<typeof compileState>[0];
  tests?: { description: string; context: EvaluationContext; toggleName: string; expectedResult: boolean }[];
  variantTests?: {
    description: string;
    context: EvaluationContext;
    toggleName: string;
    expectedResult: unknown;
  }[];
};

it("the package lists its specification files", () => {
  expect(files.length).toBeGreaterThanOrEqual(22);
});

for (const file of files) {
  const spec = JSON.parse(readFileSync(join(specDir, file), "utf8")) as Spec;
  const compiled = compileState(spec.state);
  // The SDKs' random stickiness never matches a fixed percentage in these files; a fixed
  // generator keeps runs reproducible.
  const options = { random: () => "42", hostname: "localhost" };
  describe(file, () => {
    for (const test of spec.tests ?? []) {
      it(test.description, () => {
        expect(evaluateFlag(compiled, test.toggleName, test.context, options).enabled).toBe(
          test.expectedResult,
        );
      });
    }
    for (const test of spec.variantTests ?? []) {
      it(`variant: ${test.description}`, () => {
        const { variant } = evaluateFlag(compiled, test.toggleName, test.context, options);
        const expected = test.expectedResult as Record<string, unknown>;
        // The specification's older files leave feature_enabled out of disabled results.
        const actual: Record<string, unknown> = { name: variant.name, enabled: variant.enabled };
        if (variant.payload) actual.payload = variant.payload;
        if ("feature_enabled" in expected) actual.feature_enabled = variant.feature_enabled;
        if ("featureEnabled" in expected) actual.featureEnabled = variant.featureEnabled;
        expect(actual).toEqual(expected);
      });
    }
  });
}
