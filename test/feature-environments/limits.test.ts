import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { addStrategy, createFlag, eventsAfter, lastEventId, STRATEGY } from "../helpers/builders.ts";
import { addStrategyError } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    UNLEASH_FEATURE_ENVIRONMENT_STRATEGIES_LIMIT: "2",
    UNLEASH_CONSTRAINTS_LIMIT: "2",
    UNLEASH_CONSTRAINT_VALUES_LIMIT: "3",
    UNLEASH_STRATEGY_SEGMENTS_LIMIT: "1",
    UNLEASH_SEGMENTS_LIMIT: "2",
    UNLEASH_SEGMENT_VALUES_LIMIT: "3",
  });
  await createFlag(t, "limited");
});
afterAll(() => t.close());

const inConstraint = (n: number) => ({
  contextName: "userId",
  operator: "IN",
  values: Array.from({ length: n }, (_, i) => String(i)),
});
const UPDATE = `mutation($f: String!, $id: String!, $i: StrategyUpdateInput!) {
  updateFeatureStrategy(project: "default", feature: $f, environment: "development", id: $id, input: $i) { ${STRATEGY} } }`;

describe("resource limits (reference-behaviours §12)", () => {
  it("featureEnvironmentStrategies: a third strategy in one environment is refused, naming the limit", async () => {
    await addStrategy(t, "limited", { name: "default" });
    await addStrategy(t, "limited", { name: "default" });
    const mark = await lastEventId(t);
    expect(await addStrategyError(t, "limited", { name: "default" })).toEqual({
      code: "LIMIT_EXCEEDED",
      message: "Failed to create strategy. You can't create more than the established limit of 2.",
    });
    const rest = await t.rest(
      "POST",
      "/api/admin/projects/default/features/limited/environments/development/strategies",
      {
        name: "default",
      },
    );
    expect(rest.status).toBe(400);
    expect(rest.body.name).toBe("ExceedsLimitError");
    expect(await eventsAfter(t, mark)).toEqual([]);
    // Strategies are counted per flag and environment.
    await addStrategy(t, "limited", { name: "default" }, "production");
  });

  it("constraints and constraintValues per strategy", async () => {
    await createFlag(t, "constrained");
    const tooMany = await addStrategyError(
      t,
      "constrained",
      { name: "default", constraints: [inConstraint(1), inConstraint(1), inConstraint(1)] },
      "production",
    );
    expect(tooMany).toEqual({
      code: "LIMIT_EXCEEDED",
      message: "Failed to create constraints. You can't create more than the established limit of 2.",
    });
    const tooManyValues = await addStrategyError(
      t,
      "constrained",
      { name: "default", constraints: [inConstraint(4)] },
      "production",
    );
    expect(tooManyValues?.message).toBe(
      "Failed to create constraint values for userId. You can't create more than the established limit of 3.",
    );
  });

  it("grandfathers a stored strategy over the constraint limits as long as it does not grow", async () => {
    await createFlag(t, "grandfathered");
    const strategy = await addStrategy(t, "grandfathered", { name: "default" });
    const over = [inConstraint(5), inConstraint(1), inConstraint(1)].map((c) => ({
      ...c,
      caseInsensitive: false,
      inverted: false,
    }));
    // Direct write: the API refuses a strategy over the limits; this one was stored before they
    // were lowered.
    await t.database.prisma.featureStrategy.update({
      where: { id: strategy.id },
      data: { constraints: over },
    });
    const same = await t.gql(UPDATE, {
      f: "grandfathered",
      id: strategy.id,
      i: { title: "kept", constraints: over },
    });
    expect(same.errors).toBeUndefined();
    const fewerValues = await t.gql(UPDATE, {
      f: "grandfathered",
      id: strategy.id,
      i: { constraints: [inConstraint(4), inConstraint(1), inConstraint(1)] },
    });
    expect(fewerValues.errors).toBeUndefined();
    const grown = await t.gql(UPDATE, {
      f: "grandfathered",
      id: strategy.id,
      i: { constraints: [inConstraint(4), inConstraint(1), inConstraint(1), inConstraint(1)] },
    });
    expect(grown.errors?.[0]?.message).toBe(
      "Failed to create constraints. You can't create more than the established limit of 2.",
    );
    const moreValues = await t.gql(UPDATE, {
      f: "grandfathered",
      id: strategy.id,
      i: { constraints: [inConstraint(6), inConstraint(1), inConstraint(1)] },
    });
    expect(moreValues.errors?.[0]?.message).toBe(
      "Failed to create constraint values for userId. You can't create more than the established limit of 3.",
    );
  });

  it("segments, segmentValues and strategySegments", async () => {
    const create = (name: string, values: number) =>
      t.gql(`mutation($i: SegmentInput!) { createSegment(input: $i) { id: databaseId } }`, {
        i: { name, constraints: [inConstraint(values)] },
      });
    const tooManyValues = await create("big", 4);
    expect(tooManyValues.errors?.[0]?.message).toBe(
      "Failed to create segment values. You can't create more than the established limit of 3.",
    );
    const one = await create("s1", 3);
    const two = await create("s2", 1);
    const third = await create("s3", 1);
    expect(third.errors?.[0]).toMatchObject({
      message: "Failed to create segment. You can't create more than the established limit of 2.",
      extensions: { code: "LIMIT_EXCEEDED" },
    });
    const ids = [one, two].map((r) => (r.data as any).createSegment.id);
    await createFlag(t, "limited-segments");
    expect(await addStrategyError(t, "limited-segments", { name: "default", segments: ids })).toEqual({
      code: "LIMIT_EXCEEDED",
      message:
        "Failed to create segments for one strategy. You can't create more than the established limit of 1.",
    });
    const ok = await addStrategy(t, "limited-segments", { name: "default", segments: [ids[0]] });
    expect(ok.segments).toEqual([ids[0]]);
  });
});
