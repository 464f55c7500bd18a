import { describe, expect, it } from "vitest";
import type { ClientFeaturesState } from "../../src/modules/evaluation/client-features.types.ts";
import { compileState, evaluateAll, evaluateFlag } from "../../src/modules/evaluation/engine.logic.ts";

const state: ClientFeaturesState = {
  version: 2,
  segments: [
    { id: 7, name: "beta-users", constraints: [{ contextName: "plan", operator: "IN", values: ["beta"] }] },
  ],
  features: [
    {
      name: "checkout",
      enabled: true,
      impressionData: true,
      strategies: [
        { name: "default", disabled: true },
        {
          id: "s-1",
          name: "flexibleRollout",
          parameters: { rollout: "100", stickiness: "default", groupId: "checkout" },
          constraints: [
            { contextName: "country", operator: "IN", values: ["NO", "SE"] },
            { contextName: "appVersion", operator: "SEMVER_GTE", value: "2.0.0" },
          ],
          segments: [7],
          variants: [
            { name: "blue", weight: 1000, stickiness: "default", payload: { type: "string", value: "b" } },
          ],
        },
      ],
      variants: [],
    },
    {
      name: "child",
      enabled: true,
      strategies: [],
      dependencies: [{ feature: "checkout", variants: ["green"] }],
    },
    { name: "off", enabled: false, strategies: [{ name: "default" }] },
    {
      name: "broken-data",
      enabled: true,
      strategies: [
        {
          name: "default",
          constraints: [{ contextName: "ip", operator: "IN_CIDR", values: ["not-a-range"] }],
        },
        { name: "default", constraints: [{ contextName: "v", operator: "SEMVER_EQ", value: "banana" }] },
        { name: "default", constraints: [{ contextName: "d", operator: "DATE_AFTER", value: "not a date" }] },
        { name: "default", constraints: [{ contextName: "n", operator: "NUM_GT", value: "x" }] },
        { name: "default", constraints: [{ contextName: "r", operator: "REGEX", value: "(unclosed" }] },
        { name: "default", constraints: [{ contextName: "o", operator: "NO_SUCH_OPERATOR", values: ["a"] }] },
        { name: "noSuchStrategy" },
        { name: "default", segments: [999] },
      ],
    },
  ],
};
const compiled = compileState(state);
const match = { userId: "u1", properties: { country: "NO", appVersion: "2.1.0", plan: "beta" } };

describe("why a flag evaluated as it did", () => {
  it("names the matched strategy, each constraint and segment, and the variant rule", () => {
    const result = evaluateFlag(compiled, "checkout", match);
    expect(result).toMatchObject({
      enabled: true,
      impressionData: true,
      variant: { name: "blue", enabled: true },
    });
    expect(result.reason.kind).toBe("strategy-matched");
    if (result.reason.kind !== "strategy-matched") return;
    expect(result.reason.evaluated[0]).toMatchObject({ name: "default", active: false, result: false });
    expect(result.reason.strategy).toMatchObject({
      index: 1,
      id: "s-1",
      constraints: [
        { contextName: "country", operator: "IN", contextValue: "NO", result: true },
        { contextName: "appVersion", operator: "SEMVER_GTE", contextValue: "2.1.0", result: true },
      ],
      segments: [{ id: 7, name: "beta-users", result: true }],
      rule: { enabled: true, rollout: { stickiness: "default", percentage: 100 } },
    });
    expect(result.variantRule).toMatchObject({ source: "strategy", kind: "weight", totalWeight: 1000 });
  });

  it("says which constraint failed and does not evaluate the ones after it", () => {
    const result = evaluateFlag(compiled, "checkout", {
      ...match,
      properties: { ...match.properties, country: "DK" },
    });
    expect(result.enabled).toBe(false);
    expect(result.variant).toEqual({
      name: "disabled",
      enabled: false,
      feature_enabled: false,
      featureEnabled: false,
    });
    if (result.reason.kind !== "no-strategy-matched") throw new Error(result.reason.kind);
    expect(result.reason.evaluated[1]?.constraints).toEqual([
      expect.objectContaining({ contextName: "country", contextValue: "DK", result: false }),
    ]);
    expect(result.reason.evaluated[1]?.segments).toEqual([]);
  });

  it("says which segment failed", () => {
    const result = evaluateFlag(compiled, "checkout", {
      ...match,
      properties: { ...match.properties, plan: "free" },
    });
    if (result.reason.kind !== "no-strategy-matched") throw new Error(result.reason.kind);
    expect(result.reason.evaluated[1]?.segments).toEqual([expect.objectContaining({ id: 7, result: false })]);
  });

  it("a dependency on a parent variant that is not chosen, a disabled flag, an unknown flag", () => {
    expect(evaluateFlag(compiled, "child", match)).toMatchObject({
      enabled: false,
      reason: {
        kind: "dependency-not-satisfied",
        parent: "checkout",
        required: { enabled: true, variants: ["green"] },
      },
    });
    expect(evaluateFlag(compiled, "off", match).reason).toEqual({ kind: "flag-disabled" });
    expect(evaluateFlag(compiled, "nope", match)).toMatchObject({
      enabled: false,
      reason: { kind: "unknown-flag" },
    });
  });

  it("bad data never throws: unparseable ranges, versions, dates, numbers, patterns, operators, strategies and segments do not match", () => {
    const result = evaluateFlag(compiled, "broken-data", {
      ip: "10.0.0.1",
      v: "1.0.0",
      d: "x",
      n: "5",
      r: "x",
      o: "a",
    });
    expect(result.enabled).toBe(false);
    if (result.reason.kind !== "no-strategy-matched") throw new Error(result.reason.kind);
    expect(result.reason.evaluated.map((s) => s.result)).toEqual(Array(8).fill(false));
  });

  it("evaluates every flag for one context", () => {
    expect(evaluateAll(compiled, match).map((f) => [f.name, f.enabled])).toEqual([
      ["checkout", true],
      ["child", false],
      ["off", false],
      ["broken-data", false],
    ]);
  });
});
