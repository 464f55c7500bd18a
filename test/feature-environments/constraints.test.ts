import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { addStrategy, createContextField, createFlag } from "../helpers/builders.ts";
import { addStrategyError } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await createFlag(t, "constrained");
});
afterAll(() => t.close());

const strategyWith = (constraint: Record<string, unknown>) => ({
  name: "default",
  constraints: [constraint],
});

/** The REST route's answer to adding a strategy with `constraint` to flag constrained. */
const addOverRest = (constraint: Record<string, unknown>) =>
  t.rest(
    "POST",
    "/api/admin/projects/default/features/constrained/environments/development/strategies",
    strategyWith(constraint),
  );

type Case = {
  operator: string;
  valid: Record<string, unknown>;
  invalid: Record<string, unknown>;
  error: RegExp;
};

const CASES: Case[] = [
  {
    operator: "IN",
    valid: { values: ["a", "b"] },
    invalid: { values: [] },
    error: /IN needs at least one value/,
  },
  {
    operator: "NOT_IN",
    valid: { values: ["a"] },
    invalid: { value: "a" },
    error: /NOT_IN needs at least one value/,
  },
  {
    operator: "STR_ENDS_WITH",
    valid: { values: [".com"] },
    invalid: {},
    error: /STR_ENDS_WITH needs at least one value/,
  },
  {
    operator: "STR_STARTS_WITH",
    valid: { values: ["x"] },
    invalid: { values: [] },
    error: /needs at least one value/,
  },
  {
    operator: "STR_CONTAINS",
    valid: { values: ["mid"] },
    invalid: {},
    error: /STR_CONTAINS needs at least one/,
  },
  {
    operator: "NUM_EQ",
    valid: { value: "42" },
    invalid: { value: "forty-two" },
    error: /NUM_EQ needs a number; "forty-two"/,
  },
  { operator: "NUM_GT", valid: { value: "-1.5" }, invalid: { value: "1,5" }, error: /NUM_GT needs a number/ },
  {
    operator: "NUM_GTE",
    valid: { value: "1e3" },
    invalid: { value: "" },
    error: /NUM_GTE needs a single "value"/,
  },
  {
    operator: "NUM_LT",
    valid: { value: "0" },
    invalid: { value: "Infinity" },
    error: /NUM_LT needs a number/,
  },
  { operator: "NUM_LTE", valid: { value: "10" }, invalid: {}, error: /NUM_LTE needs a single "value"/ },
  {
    operator: "DATE_AFTER",
    valid: { value: "2026-01-31T12:00:00.000Z" },
    invalid: { value: "2026-01-31" },
    error: /DATE_AFTER needs an RFC 3339 date-time; "2026-01-31"/,
  },
  {
    operator: "DATE_BEFORE",
    valid: { value: "2026-01-31T12:00:00+02:00" },
    invalid: { value: "2026-13-45T99:00:00Z" },
    error: /DATE_BEFORE needs an RFC 3339 date-time/,
  },
  {
    operator: "SEMVER_EQ",
    valid: { value: "1.2.3" },
    invalid: { value: "1.2" },
    error: /SEMVER_EQ needs a semantic version/,
  },
  {
    operator: "SEMVER_GT",
    valid: { value: "2.0.0-beta.1" },
    invalid: { value: "v2.0.0" },
    error: /SEMVER_GT needs a semantic/,
  },
  {
    operator: "SEMVER_LT",
    valid: { value: "10.20.30+build.5" },
    invalid: { value: "latest" },
    error: /SEMVER_LT needs/,
  },
];

describe("constraints of every operator (spec 2.2)", () => {
  it("covers all 15 operators", () => {
    expect(new Set(CASES.map((c) => c.operator)).size).toBe(15);
  });

  for (const c of CASES) {
    it(`${c.operator}: accepts a valid constraint and stores it normalized`, async () => {
      const strategy = await addStrategy(
        t,
        "constrained",
        strategyWith({ contextName: "ctx", operator: c.operator, ...c.valid }),
      );
      const multi = "values" in c.valid;
      expect(strategy.constraints).toEqual([
        {
          contextName: "ctx",
          operator: c.operator,
          caseInsensitive: false,
          inverted: false,
          values: multi ? c.valid.values : [],
          value: multi ? null : c.valid.value,
        },
      ]);
    });

    it(`${c.operator}: refuses an invalid one with VALIDATION naming the field`, async () => {
      const error = await addStrategyError(
        t,
        "constrained",
        strategyWith({ contextName: "ctx", operator: c.operator, ...c.invalid }),
      );
      expect(error?.code).toBe("VALIDATION");
      expect(error?.message).toMatch(/^constraints\.0\.value/);
      expect(error?.message).toMatch(c.error);
    });
  }

  it("keeps caseInsensitive and inverted", async () => {
    const strategy = await addStrategy(t, "constrained", {
      name: "default",
      constraints: [
        {
          contextName: "email",
          operator: "STR_ENDS_WITH",
          values: ["@x.io"],
          caseInsensitive: true,
          inverted: true,
        },
      ],
    });
    expect(strategy.constraints[0]).toMatchObject({
      caseInsensitive: true,
      inverted: true,
      values: ["@x.io"],
    });
  });

  it("turns a lone value of a STR_* operator into a one-item list, as Unleash reads it", async () => {
    const strategy = await addStrategy(
      t,
      "constrained",
      strategyWith({ contextName: "c", operator: "STR_CONTAINS", value: "ab" }),
    );
    expect(strategy.constraints[0]).toMatchObject({ values: ["ab"], value: null });
  });

  it("refuses an unknown operator", async () => {
    const res = await addOverRest({ contextName: "c", operator: "STR_MATCHES", values: ["x"] });
    expect(res.status).toBe(400);
    expect(res.body.name).toBe("ValidationError");
    expect(res.body.message).toContain("STR_MATCHES");
  });

  it("answers 400 over REST with the field path for a bad semver", async () => {
    const res = await addOverRest({ contextName: "version", operator: "SEMVER_GT", value: "one" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      name: "ValidationError",
      message: 'constraints.0.value: SEMVER_GT needs a semantic version such as 1.2.3; "one" is not one',
    });
  });

  it("only allows a context field's legal values", async () => {
    await createContextField(t, "region", { legalValues: [{ value: "eu" }, { value: "us" }] });
    await addStrategy(
      t,
      "constrained",
      strategyWith({ contextName: "region", operator: "IN", values: ["eu"] }),
    );
    const error = await addStrategyError(
      t,
      "constrained",
      strategyWith({ contextName: "region", operator: "IN", values: ["eu", "mars"] }),
    );
    expect(error).toEqual({
      code: "VALIDATION",
      message: 'constraints.0: "mars" is not specified as a legal value on context field region',
    });
  });
});
