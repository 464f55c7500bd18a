import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag } from "../helpers/builders.ts";
import { FLAG_FIELDS, nextMillisecond, normalized } from "./time-travel-helpers.ts";

// Random sequences of changes go through the API; after each, the live read of the flag is
// kept with the instant it was read at. `featureAt` at each of those instants must equal it.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await createFlag(t, "tt-parent");
});
afterAll(() => t.close());

const environment = fc.constantFrom("development", "production");
const op = fc.oneof(
  fc.record({ kind: fc.constant("enable" as const), environment }),
  fc.record({ kind: fc.constant("disable" as const), environment }),
  fc.record({
    kind: fc.constant("addStrategy" as const),
    environment,
    rollout: fc.integer({ min: 0, max: 100 }),
    constrained: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant("updateStrategy" as const),
    environment,
    pick: fc.nat(3),
    rollout: fc.integer({ min: 0, max: 100 }),
    disabled: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("deleteStrategy" as const), environment, pick: fc.nat(3) }),
  fc.record({ kind: fc.constant("variants" as const), environment, count: fc.nat(2) }),
  fc.record({
    kind: fc.constant("tag" as const),
    value: fc.constantFrom("alpha", "beta"),
    add: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("stale" as const), stale: fc.boolean() }),
  fc.record({ kind: fc.constant("describe" as const), text: fc.constantFrom("one", "two", null) }),
  fc.record({ kind: fc.constant("archive" as const), revive: fc.boolean() }),
  fc.record({ kind: fc.constant("dependency" as const), add: fc.boolean(), enabled: fc.boolean() }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

const LIVE = `query($n: String!) { feature(name: $n) { ${FLAG_FIELDS} createdAt } }`;
const PAST = `query($n: String!, $at: DateTime!) {
  featureAt(name: $n, at: $at) { exact lastEventId state { ${FLAG_FIELDS} createdAt } } }`;

async function strategyIds(name: string, env: string): Promise<string[]> {
  const res = await t.gql<{ feature: { environments: { name: string; strategies: { id: string }[] }[] } }>(
    `query($n: String!) { feature(name: $n) { environments { name strategies { id: databaseId } } } }`,
    { n: name },
  );
  return res.data?.feature.environments.find((e) => e.name === env)?.strategies.map((s) => s.id) ?? [];
}

/** Applies one change through GraphQL; a refused change (e.g. on an archived flag) changes nothing. */
async function apply(name: string, o: Op) {
  const target = { p: "default", f: name, e: "environment" in o ? o.environment : "" };
  const args = "$p: String!, $f: String!, $e: String!";
  const at = "project: $p, feature: $f, environment: $e";
  switch (o.kind) {
    case "enable":
    case "disable":
      return t.gql(`mutation(${args}) { ${o.kind}FeatureEnvironment(${at}) { name } }`, target);
    case "addStrategy":
      return t.gql(
        `mutation(${args}, $i: StrategyInput!) { addFeatureStrategy(${at}, input: $i) { id: databaseId } }`,
        {
          ...target,
          i: {
            name: "flexibleRollout",
            parameters: { rollout: String(o.rollout) },
            constraints: o.constrained ? [{ contextName: "userId", operator: "IN", values: ["1", "2"] }] : [],
          },
        },
      );
    case "updateStrategy":
    case "deleteStrategy": {
      const ids = await strategyIds(name, o.environment);
      const id = ids[o.pick % Math.max(ids.length, 1)];
      if (!id) return;
      if (o.kind === "deleteStrategy") {
        return t.gql(`mutation(${args}, $id: String!) { deleteFeatureStrategy(${at}, id: $id) { name } }`, {
          ...target,
          id,
        });
      }
      return t.gql(
        `mutation(${args}, $id: String!, $i: StrategyUpdateInput!) { updateFeatureStrategy(${at}, id: $id, input: $i) { id: databaseId } }`,
        { ...target, id, i: { parameters: { rollout: String(o.rollout) }, disabled: o.disabled } },
      );
    }
    case "variants":
      return t.gql(
        `mutation(${args}, $v: [EnvironmentVariantInput!]!) { setFeatureEnvironmentVariants(${at}, variants: $v) { name } }`,
        {
          ...target,
          v: Array.from({ length: o.count }, (_, i) => ({ name: `v${i}`, stickiness: "default" })),
        },
      );
    case "tag":
      return t.gql(
        `mutation($f: String!, $v: String!) { ${o.add ? "addFeatureTag" : "removeFeatureTag"}(feature: $f, type: "simple", value: $v) { __typename } }`,
        { f: name, v: o.value },
      );
    case "stale":
      return t.gql(
        `mutation($f: String!) { setFeaturesStale(project: "default", names: [$f], stale: ${o.stale}) { name } }`,
        {
          f: name,
        },
      );
    case "describe":
      return t.gql(
        `mutation($f: String!, $d: String) { updateFeature(project: "default", name: $f, input: { description: $d }) { name } }`,
        { f: name, d: o.text },
      );
    case "archive":
      return t.gql(
        `mutation($f: String!) { ${o.revive ? "reviveFeatures" : "archiveFeatures"}(project: "default", names: [$f]) { name } }`,
        { f: name },
      );
    case "dependency":
      return o.add
        ? t.gql(
            `mutation($f: String!, $e: Boolean!) { addFeatureDependency(project: "default", feature: $f, input: { feature: "tt-parent", enabled: $e }) { name } }`,
            { f: name, e: o.enabled },
          )
        : t.gql(
            `mutation($f: String!) { removeFeatureDependency(project: "default", feature: $f, parent: "tt-parent") { name } }`,
            { f: name },
          );
  }
}

let runs = 0;

describe("featureAt rebuilds what a read returned at that instant", () => {
  it("for random sequences of changes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
        const name = `tt-flag-${++runs}`;
        const beforeCreation = await nextMillisecond(new Date());
        await createFlag(t, name);
        const seen: { at: Date; live: unknown }[] = [];
        for (const o of [null, ...ops]) {
          if (o) await apply(name, o);
          const live = await t.gql<{ feature: unknown }>(LIVE, { n: name });
          seen.push({ at: new Date(), live: normalized(live.data?.feature) });
          await nextMillisecond(seen[seen.length - 1]?.at as Date);
        }
        const none = await t.gql<{ featureAt: { exact: boolean; state: unknown } }>(PAST, {
          n: name,
          at: beforeCreation,
        });
        expect(none.data?.featureAt).toMatchObject({ exact: true, state: null });
        for (const { at, live } of seen) {
          const past = await t.gql<{ featureAt: { exact: boolean; lastEventId: number; state: unknown } }>(
            PAST,
            {
              n: name,
              at: at.toISOString(),
            },
          );
          expect(past.errors).toBeUndefined();
          expect(past.data?.featureAt.exact).toBe(true);
          expect(past.data?.featureAt.lastEventId).toBeGreaterThan(0);
          expect(normalized(past.data?.featureAt.state)).toEqual(live);
        }
      }),
      { numRuns: 12 },
    );
  });
});
