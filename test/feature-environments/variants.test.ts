import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { addStrategy, createFlag, eventsAfter, lastEventId } from "../helpers/builders.ts";
import { addStrategyError } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await createFlag(t, "variants-flag");
});
afterAll(() => t.close());

// Each environment-variants test sets them on a flag of its own.
const variantsPath = (flag: string) =>
  `/api/admin/projects/default/features/${flag}/environments/development/variants`;
const SET = `mutation($f: String!, $v: [EnvironmentVariantInput!]!) {
  setFeatureEnvironmentVariants(project: "default", feature: $f, environment: "development", variants: $v) {
    variantCount variants { name weight weightType stickiness payload { type value } overrides { contextName values } } } }`;

const weights = (variants: { name: string; weight: number }[]) => variants.map((v) => [v.name, v.weight]);

describe("weights (spec 2.4)", () => {
  it("shares 1000 among variable variants; the first ones get the remainder", async () => {
    const strategy = await addStrategy(t, "variants-flag", {
      name: "default",
      variants: [{ name: "a" }, { name: "b" }, { name: "c" }],
    });
    expect(weights(strategy.variants)).toEqual([
      ["a", 334],
      ["b", 333],
      ["c", 333],
    ]);
    expect(strategy.variants[0]).toMatchObject({ weightType: "variable", stickiness: "default" });
  });

  it("keeps fix weights and gives the rest to the variable ones", async () => {
    const strategy = await addStrategy(t, "variants-flag", {
      name: "default",
      variants: [
        { name: "x", weight: 10, weightType: "variable" },
        { name: "fixed", weight: 301, weightType: "fix" },
        { name: "y", weight: 990, weightType: "variable" },
      ],
    });
    expect(weights(strategy.variants)).toEqual([
      ["x", 350],
      ["fixed", 301],
      ["y", 349],
    ]);
  });

  it("accepts only fix variants that add up to exactly 1000", async () => {
    const ok = await addStrategy(t, "variants-flag", {
      name: "default",
      variants: [
        { name: "p", weight: 400, weightType: "fix" },
        { name: "q", weight: 600, weightType: "fix" },
      ],
    });
    expect(weights(ok.variants)).toEqual([
      ["p", 400],
      ["q", 600],
    ]);
    const short = await addStrategyError(t, "variants-flag", {
      name: "default",
      variants: [{ name: "p", weight: 400, weightType: "fix" }],
    });
    expect(short).toEqual({
      code: "VALIDATION",
      message: "variants: with only fix variants the weights must add up to 1000, not 400",
    });
  });

  it("refuses fix weights over 1000 in total, repeated names and bad payloads", async () => {
    const over = await addStrategyError(t, "variants-flag", {
      name: "default",
      variants: [
        { name: "p", weight: 600, weightType: "fix" },
        { name: "q", weight: 500, weightType: "fix" },
        { name: "r" },
      ],
    });
    expect(over?.message).toBe("variants: the fix weights add up to 1100, more than the total of 1000");
    const dup = await addStrategyError(t, "variants-flag", {
      name: "default",
      variants: [{ name: "same" }, { name: "same" }],
    });
    expect(dup?.message).toBe('variants.1.name: variant names must be unique; "same" is repeated');
    const json = await addStrategyError(t, "variants-flag", {
      name: "default",
      variants: [{ name: "j", payload: { type: "json", value: "{nope" } }],
    });
    expect(json?.message).toBe("variants.0.payload.value: a json payload must be valid JSON");
    const num = await addStrategyError(t, "variants-flag", {
      name: "default",
      variants: [{ name: "n", payload: { type: "number", value: "12a" } }],
    });
    expect(num?.message).toBe("variants.0.payload.value: a number payload must be a number");
  });

  it("accepts json, csv, string and number payloads", async () => {
    const strategy = await addStrategy(t, "variants-flag", {
      name: "default",
      variants: [
        { name: "j", payload: { type: "json", value: '{"a":1}' } },
        { name: "c", payload: { type: "csv", value: "a,b" } },
        { name: "s", payload: { type: "string", value: "hi" } },
        { name: "n", payload: { type: "number", value: "1.5" } },
      ],
    });
    expect(strategy.variants.map((v: any) => [v.name, v.weight, v.payload.type])).toEqual([
      ["j", 250, "json"],
      ["c", 250, "csv"],
      ["s", 250, "string"],
      ["n", 250, "number"],
    ]);
  });
});

describe("environment variants (spec 2.5)", () => {
  const ON_OFF_MAYBE = [
    {
      name: "on",
      weight: 200,
      weightType: "fix",
      overrides: [{ contextName: "userId", values: ["1", "2"] }],
    },
    { name: "off", stickiness: "sessionId" },
    { name: "maybe" },
  ];

  it("sets variants with overrides, rebalanced; feature-environment-variants-updated {variants}", async () => {
    await createFlag(t, "variants-set");
    const mark = await lastEventId(t);
    const res = await t.gql(SET, { f: "variants-set", v: ON_OFF_MAYBE });
    expect(res.errors).toBeUndefined();
    expect(res.data?.setFeatureEnvironmentVariants).toEqual({
      variantCount: 3,
      variants: [
        {
          name: "on",
          weight: 200,
          weightType: "fix",
          stickiness: "default",
          payload: null,
          overrides: [{ contextName: "userId", values: ["1", "2"] }],
        },
        {
          name: "off",
          weight: 400,
          weightType: "variable",
          stickiness: "sessionId",
          payload: null,
          overrides: [],
        },
        {
          name: "maybe",
          weight: 400,
          weightType: "variable",
          stickiness: "default",
          payload: null,
          overrides: [],
        },
      ],
    });
    const events = await eventsAfter(t, mark);
    expect(events.map((e) => [e.type, e.environment, e.preData])).toEqual([
      ["feature-environment-variants-updated", "development", { variants: [] }],
    ]);
    expect(events[0]?.data?.variants.map((v: any) => [v.name, v.weight])).toEqual([
      ["on", 200],
      ["off", 400],
      ["maybe", 400],
    ]);
  });

  it("records nothing when the same variants are set again", async () => {
    await createFlag(t, "variants-set-twice");
    expect((await t.gql(SET, { f: "variants-set-twice", v: ON_OFF_MAYBE })).errors).toBeUndefined();
    const mark = await lastEventId(t);
    expect((await t.gql(SET, { f: "variants-set-twice", v: ON_OFF_MAYBE })).errors).toBeUndefined();
    expect(await eventsAfter(t, mark)).toEqual([]);
  });

  it("PUT .../variants answers {version, variants}; over 1000 fix is a 400", async () => {
    await createFlag(t, "variants-put");
    const VARIANTS_PATH = variantsPath("variants-put");
    const res = await t.rest("PUT", VARIANTS_PATH, [
      { name: "a", weight: 0, weightType: "variable", stickiness: "default" },
      {
        name: "b",
        weight: 0,
        weightType: "variable",
        stickiness: "default",
        payload: { type: "string", value: "x" },
      },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      version: 1,
      variants: [
        {
          name: "a",
          weight: 500,
          weightType: "variable",
          stickiness: "default",
          payload: null,
          overrides: [],
        },
        {
          name: "b",
          weight: 500,
          weightType: "variable",
          stickiness: "default",
          payload: { type: "string", value: "x" },
          overrides: [],
        },
      ],
    });
    const over = await t.rest("PUT", VARIANTS_PATH, [{ name: "a", weight: 1001, weightType: "fix" }]);
    expect(over.status).toBe(400);
    expect(over.body.name).toBe("ValidationError");
    const notArray = await t.rest("PUT", VARIANTS_PATH, { name: "a" });
    expect(notArray.status).toBe(400);
  });
});
