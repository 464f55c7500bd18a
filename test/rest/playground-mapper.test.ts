import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  advancedPlaygroundAnswer,
  evaluationInput,
  type FlagEvaluation,
  flatContext,
  playgroundAnswer,
  projectsOf,
  unleashFeature,
} from "../../rest/mappers/playground.ts";
import { ValidationError } from "../../src/shared/errors.ts";

// Unleash's playground shape over GraphQL's evaluation (rest/mappers/playground.ts), against a
// fixture: GraphQL's data for a request and the answer the routes gave before the mapper was a
// module. The routes themselves are tested through HTTP in test/evaluation/playground.test.ts.
const fixture = JSON.parse(readFileSync(new URL("./fixtures/playground.json", import.meta.url), "utf8"));
const { playground, advanced } = fixture;

describe("the playground mapper", () => {
  it("answers the fixture's evaluation as Unleash's playground answer, key for key and in order", () => {
    const answer = playgroundAnswer(playground.data.evaluate, playground.request);
    expect(answer).toEqual(playground.answer);
    expect(JSON.stringify(answer)).toBe(JSON.stringify(playground.answer));
    const grouped = advancedPlaygroundAnswer(advanced.data.evaluateMany, advanced.request);
    expect(JSON.stringify(grouped)).toBe(JSON.stringify(advanced.answer));
  });

  it("turns the request's context and projects into GraphQL's input", () => {
    expect({ environment: playground.request.environment, ...evaluationInput(playground.request) }).toEqual(
      playground.variables,
    );
    // Properties and unknown fields at the top, every value a string; SDK fields by name.
    expect(evaluationInput(playground.request).context).toEqual({
      appName: "shop",
      userId: "1",
      properties: { region: "eu", plan: "pro", seats: "5" },
    });
    expect(projectsOf({})).toBeNull();
    expect(projectsOf({ projects: "*" })).toBeNull();
    expect(projectsOf({ projects: ["a", "*"] })).toBeNull();
    expect(projectsOf({ projects: ["a"] })).toEqual(["a"]);
  });

  it("refuses a context that is no object, a context value that is an object, and projects that are no list", () => {
    expect(() => evaluationInput({ context: "userId=1" })).toThrow(
      new ValidationError('"context" must be an object.'),
    );
    expect(() => flatContext({ userId: { id: 1 } })).toThrow('"context.userId" must be a string.');
    expect(() => projectsOf({ projects: [1] })).toThrow('"projects" must be a list of project ids or "*".');
  });

  it("shapes each evaluated flag as Unleash does", () => {
    const [checkout, preRelease, child] = playground.data.evaluate as FlagEvaluation[];
    if (!checkout || !preRelease || !child) throw new Error("the fixture lacks a flag");

    const matched = unleashFeature(checkout, "production");
    expect(matched.strategies.result).toBe(true);
    // Only the matched strategy carries the variant; a strategy without a title has none.
    expect(matched.strategies.data.map((s) => "variant" in s.result)).toEqual([false, true]);
    expect(matched.strategies.data.map((s) => "title" in s)).toEqual([false, true]);
    // A constraint leaves out an empty `values` and a null `value`.
    expect(matched.strategies.data[0]?.constraints[0]).not.toHaveProperty("value");
    expect(matched.strategies.data[1]?.constraints[0]).not.toHaveProperty("values");
    expect(matched.variant).toEqual({
      name: "blue",
      enabled: true,
      payload: { type: "string", value: "b" },
      feature_enabled: true,
      featureEnabled: true,
    });

    const unknown = unleashFeature(preRelease, "pre prod");
    expect(unknown.strategies.result).toBe("unknown");
    expect(unknown.projectId).toBe("");
    expect(unknown.strategies.data.map((s) => s.result)).toEqual([
      { evaluationStatus: "incomplete", enabled: "unknown" },
      { evaluationStatus: "unevaluated", enabled: false },
    ]);
    expect(unknown.strategies.data[0]?.id).toBe("");
    expect(unknown.strategies.data[0]?.segments[0]?.name).toBe("");
    expect(unknown.strategies.data[0]?.links.edit).toBe(
      "/projects/null/features/pre%20release/strategies/edit?environmentId=pre%20prod&strategyId=",
    );
    expect(unknown.variant).not.toHaveProperty("payload");

    expect(unleashFeature(child, "production").hasUnsatisfiedDependency).toBe(true);
    expect(matched.hasUnsatisfiedDependency).toBe(false);
  });

  it("groups the advanced playground's evaluations by flag, then environment, each with its context", () => {
    const grouped = advancedPlaygroundAnswer(advanced.data.evaluateMany, advanced.request);
    expect(grouped.input.projects).toBe("*");
    expect(grouped.features.map((f) => f.name)).toEqual(["checkout", "child-flag"]);
    const checkout = grouped.features[0];
    expect(Object.keys(checkout?.environments ?? {})).toEqual(["development", "production"]);
    expect(checkout?.environments.development?.map((e) => e.context)).toEqual([
      { appName: "shop", userId: "1" },
      { appName: "shop", userId: "2" },
    ]);
    expect(checkout?.environments.production?.[0]).not.toHaveProperty("hasUnsatisfiedDependency");
  });
});
