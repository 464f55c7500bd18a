import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { addStrategy, createFlag, disableFlag, gqlOk } from "../helpers/builders.ts";
import { times } from "../helpers/concurrency.ts";
import { FLAG_FIELDS, nextMillisecond, normalized } from "../time-travel/time-travel-helpers.ts";

/**
 * Time travel's writes under concurrency: each flag event stores the flag's state in the
 * statement that records it, and restores are ordinary writes. On PostgreSQL (TEST_DATABASE_URL,
 * CI's second pass) the requests overlap at READ COMMITTED: the newest stored state must still be
 * the flag as it is, and two restores at once must leave one of the two states, never a mix.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const LIVE = `query($n: String!) { feature(name: $n) { ${FLAG_FIELDS} } }`;
const PAST = `query($n: String!, $at: DateTime!) { featureAt(name: $n, at: $at) { exact state { ${FLAG_FIELDS} } } }`;

async function live(name: string) {
  return normalized((await gqlOk<{ feature: unknown }>(t, LIVE, { n: name })).feature);
}
async function storedNow(name: string) {
  const at = (await nextMillisecond(new Date())).toISOString();
  const past = await gqlOk<{ featureAt: { exact: boolean; state: unknown } }>(t, PAST, { n: name, at });
  expect(past.featureAt.exact).toBe(true);
  return normalized(past.featureAt.state);
}
const statusesOf = (results: { errors?: unknown[] }[]) => results.map((r) => (r.errors ? "error" : "ok"));

describe("time travel under concurrency", () => {
  it("after 30 concurrent changes of one flag, the newest stored state is the flag as it is", async () => {
    await createFlag(t, "tt-race");
    const at = `project: "default", feature: "tt-race", environment: "development"`;
    const results = await times(30, (i) => {
      if (i % 3 === 0) {
        return t.gql(`mutation { ${i % 2 ? "enable" : "disable"}FeatureEnvironment(${at}) { name } }`);
      }
      if (i % 3 === 1) {
        return t.gql(
          `mutation { addFeatureStrategy(${at}, input: { name: "flexibleRollout", parameters: { rollout: "${i}" } }) { name } }`,
        );
      }
      return t.gql(
        `mutation { addFeatureTag(feature: "tt-race", type: "simple", value: "v${i}") { value } }`,
      );
    });
    expect(statusesOf(results)).not.toContain("error");
    expect(await storedNow("tt-race")).toEqual(await live("tt-race"));
  });

  it("two concurrent restores to different instants leave exactly one of the two states", async () => {
    await createFlag(t, "tt-restore", { enabledIn: ["development"] });
    const first = (await nextMillisecond(new Date())).toISOString();
    const stateA = await live("tt-restore");
    await addStrategy(t, "tt-restore", { name: "flexibleRollout", parameters: { rollout: "25" } });
    await gqlOk(
      t,
      `mutation { addFeatureTag(feature: "tt-restore", type: "simple", value: "bee") { value } }`,
    );
    const second = (await nextMillisecond(new Date())).toISOString();
    const stateB = await live("tt-restore");
    await disableFlag(t, "tt-restore", "development");
    await gqlOk(
      t,
      `mutation { updateFeature(project: "default", name: "tt-restore", input: { description: "c" }) { name } }`,
    );

    const restore = (instant: string) =>
      t.gql(
        `mutation($at: DateTime!) { restoreFeature(project: "default", name: "tt-restore", at: $at) { events } }`,
        {
          at: instant,
        },
      );
    const results = await Promise.all([restore(first), restore(second), restore(first), restore(second)]);
    expect(results.flatMap((r) => r.errors ?? [])).toEqual([]);

    const now = await live("tt-restore");
    const withoutStrategyIds = (flag: unknown) =>
      JSON.parse(JSON.stringify(flag), (key, value) => (key === "id" ? undefined : value));
    expect([withoutStrategyIds(stateA), withoutStrategyIds(stateB)]).toContainEqual(withoutStrategyIds(now));
    expect(await storedNow("tt-restore")).toEqual(now);
  });
});
