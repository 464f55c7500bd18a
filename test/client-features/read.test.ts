import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readClientState } from "../../src/modules/client-features/client-features.read.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  addDependency,
  archiveFlag,
  createFlag,
  createProject,
  createSegment,
  gqlOk,
  soleVariant,
} from "../helpers/builders.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const segmentId = await createSegment(t, "beta", {
    constraints: [{ contextName: "plan", operator: "IN", values: ["beta"] }],
  });
  await createProject(t, "other", { name: "Other" });
  await createFlag(t, "alpha", {
    impressionData: true,
    strategies: [
      {
        name: "flexibleRollout",
        parameters: { rollout: "50", stickiness: "userId", groupId: "alpha" },
        constraints: [{ contextName: "country", operator: "IN", values: ["NO"], caseInsensitive: true }],
        segments: [segmentId],
        variants: [soleVariant("v1")],
      },
      { name: "default", disabled: true },
    ],
    enabledIn: ["development"],
  });
  await createFlag(t, "beta-flag", { impressionData: true });
  await createFlag(t, "zeta", { project: "other", impressionData: true });
  await createFlag(t, "gone", { impressionData: true });
  await addDependency(t, "beta-flag", "alpha", { variants: ["v1"] });
  await archiveFlag(t, "gone");
});
afterAll(() => t?.close());

describe("a scope's client configuration", () => {
  it("holds the flags of its projects in one environment, in Unleash's client-features format", async () => {
    const state = await readClientState(t.deps.db, { environment: "development", projects: ["default"] });
    expect(state.features.map((f) => f.name)).toEqual(["alpha", "beta-flag"]);
    const alpha = state.features[0];
    expect(alpha).toMatchObject({
      name: "alpha",
      project: "default",
      type: "release",
      enabled: true,
      stale: false,
      impressionData: true,
      variants: [],
    });
    expect(alpha?.strategies?.[0]).toMatchObject({
      name: "flexibleRollout",
      parameters: { rollout: "50", stickiness: "userId", groupId: "alpha" },
      constraints: [
        expect.objectContaining({
          contextName: "country",
          operator: "IN",
          values: ["NO"],
          caseInsensitive: true,
        }),
      ],
      variants: [expect.objectContaining({ name: "v1", weight: 1000 })],
      disabled: false,
    });
    expect(alpha?.strategies?.[1]).toMatchObject({ name: "default", disabled: true });
    expect(state.features[1]?.dependencies).toEqual([{ feature: "alpha", enabled: true, variants: ["v1"] }]);
    expect(state.segments).toEqual([
      {
        id: alpha?.strategies?.[0]?.segments?.[0],
        name: "beta",
        constraints: [expect.objectContaining({ contextName: "plan" })],
      },
    ]);
    const all = await readClientState(t.deps.db, { environment: "production", projects: "*" });
    expect(all.features.map((f) => [f.name, f.enabled, f.strategies?.length])).toEqual([
      ["alpha", false, 0],
      ["beta-flag", false, 0],
      ["zeta", false, 0],
    ]);
  });

  it("the cache serves from memory until a change is committed, and SDKs get no disabled strategy", async () => {
    const cache = t.deps.services.clientFeatures;
    const scope = { environment: "development", projects: ["default"] };
    const first = await cache.snapshot(scope);
    expect(await cache.snapshot(scope)).toBe(first);
    expect(first.sdkState.features[0]?.strategies?.map((s) => s.name)).toEqual(["flexibleRollout"]);
    let stale = 0;
    const stop = cache.onStale(() => stale++);
    await gqlOk(
      t,
      `mutation { setFeaturesStale(project: "default", names: ["alpha"], stale: true) { name } }`,
    );
    const [a, b] = await Promise.all([cache.snapshot(scope), cache.snapshot(scope)]);
    expect(a).toBe(b);
    expect(a).not.toBe(first);
    expect(a.state.features[0]?.stale).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(stale).toBeGreaterThan(0);
    stop();
  });
});
