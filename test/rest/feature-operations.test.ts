import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag, userWithPat } from "../helpers/builders.ts";

/**
 * Unleash's flag operations a script uses besides the basic CRUD (issue 14): bulk on/off,
 * name and constraint checks, tag edits, clone, JSON Patch of strategies and variants,
 * variants in several environments, lifecycle counts. Answers are checked against each
 * route's declared response schema (checkRestResponses).
 */
let t: TestApp;
let viewer: string;
beforeAll(async () => {
  t = await createTestApp();
  viewer = (await userWithPat(t, "ops-viewer", "Viewer")).token;
});
afterAll(() => t.close());

const PROJECT = "/api/admin/projects/default";
const flag = (name: string) => `${PROJECT}/features/${name}`;
const events = (type: string, featureName?: string) =>
  t.database.prisma.event.findMany({ where: { type, ...(featureName ? { featureName } : {}) } });

async function enabledIn(name: string, environment: string) {
  const row = await t.database.prisma.featureEnvironment.findUniqueOrThrow({
    where: { featureName_environmentName: { featureName: name, environmentName: environment } },
  });
  return row.enabled;
}

describe("bulk on/off", () => {
  it("turns every listed flag on, one enabled event each, 200 without a body; then off", async () => {
    await createFlag(t, "bulk-a");
    await createFlag(t, "bulk-b");
    const on = await t.rest("POST", `${PROJECT}/bulk_features/environments/development/on`, {
      features: ["bulk-a", "bulk-b"],
    });
    expect(on).toMatchObject({ status: 200, body: undefined });
    expect(await enabledIn("bulk-a", "development")).toBe(true);
    expect(await enabledIn("bulk-b", "development")).toBe(true);
    expect(await enabledIn("bulk-a", "production")).toBe(false);
    expect(await events("feature-environment-enabled", "bulk-a")).toHaveLength(1);
    expect(await events("feature-strategy-add", "bulk-b")).toHaveLength(1);
    const again = await t.rest("POST", `${PROJECT}/bulk_features/environments/development/on`, {
      features: ["bulk-a", "bulk-b"],
    });
    expect(again.status).toBe(200);
    expect(await events("feature-environment-enabled", "bulk-a")).toHaveLength(1);
    const off = await t.rest("POST", `${PROJECT}/bulk_features/environments/development/off`, {
      features: ["bulk-a"],
    });
    expect(off.status).toBe(200);
    expect(await enabledIn("bulk-a", "development")).toBe(false);
    expect(await enabledIn("bulk-b", "development")).toBe(true);
    expect(await events("feature-environment-disabled", "bulk-a")).toHaveLength(1);
  });

  it("all or nothing: an unknown flag is 404 and no flag changed; a bad body is 400; a viewer 403", async () => {
    await createFlag(t, "bulk-c");
    const missing = await t.rest("POST", `${PROJECT}/bulk_features/environments/production/on`, {
      features: ["bulk-c", "no-such-flag"],
    });
    expect(missing.status).toBe(404);
    expect(await enabledIn("bulk-c", "production")).toBe(false);
    expect(await events("feature-environment-enabled", "bulk-c")).toHaveLength(0);
    const noEnv = await t.rest("POST", `${PROJECT}/bulk_features/environments/nowhere/on`, {
      features: ["bulk-c"],
    });
    expect(noEnv.status).toBe(404);
    const bad = await t.rest("POST", `${PROJECT}/bulk_features/environments/production/on`, {
      features: "bulk-c",
    });
    expect(bad.status).toBe(400);
    const forbidden = await t.rest(
      "POST",
      `${PROJECT}/bulk_features/environments/production/on`,
      { features: ["bulk-c"] },
      viewer,
    );
    expect(forbidden).toMatchObject({ status: 403, body: { name: "NoAccessError" } });
  });
});

describe("checks", () => {
  it("a flag name: 200 when free, 409 when taken, 400 when not URL-friendly", async () => {
    await createFlag(t, "taken-name");
    const free = await t.rest("POST", "/api/admin/features/validate", {
      name: "free-name",
      projectId: "default",
    });
    expect(free).toMatchObject({ status: 200, body: undefined });
    const taken = await t.rest("POST", "/api/admin/features/validate", { name: "taken-name" });
    expect(taken).toMatchObject({ status: 409, body: { name: "NameExistsError" } });
    expect((await t.rest("POST", "/api/admin/features/validate", { name: "no spaces" })).status).toBe(400);
    expect((await t.rest("POST", "/api/admin/features/validate", {})).status).toBe(400);
  });

  it("a constraint: 204 when valid, 400 for an unknown field, bad value or illegal value", async () => {
    const valid = await t.rest("POST", "/api/admin/constraints/validate", {
      contextName: "userId",
      operator: "IN",
      values: ["1"],
    });
    expect(valid.status).toBe(204);
    const number = { contextName: "userId", operator: "NUM_GT", value: "abc" };
    expect((await t.rest("POST", "/api/admin/constraints/validate", number)).status).toBe(400);
    const unknown = { contextName: "no-such-field", operator: "IN", values: ["x"] };
    expect((await t.rest("POST", "/api/admin/constraints/validate", unknown)).status).toBe(400);
    const field = await t.rest("POST", "/api/admin/context", {
      name: "region",
      legalValues: [{ value: "eu" }, { value: "us" }],
    });
    expect(field.status).toBe(201);
    const legal = { contextName: "region", operator: "IN", values: ["eu"] };
    expect((await t.rest("POST", "/api/admin/constraints/validate", legal)).status).toBe(204);
    const illegal = { contextName: "region", operator: "IN", values: ["mars"] };
    expect((await t.rest("POST", "/api/admin/constraints/validate", illegal)).status).toBe(400);
  });
});

describe("tags, clone, patches", () => {
  it("PUT tags adds then removes in one call and answers the flag's tags", async () => {
    await createFlag(t, "tagged", { tags: [{ type: "simple", value: "old" }] });
    const res = await t.rest("PUT", "/api/admin/features/tagged/tags", {
      addedTags: [{ type: "simple", value: "new-one" }],
      removedTags: [{ type: "simple", value: "old" }],
    });
    expect(res).toMatchObject({
      status: 200,
      body: { version: 1, tags: [{ type: "simple", value: "new-one" }] },
    });
    expect(await events("feature-tagged", "tagged")).toHaveLength(1);
    expect(await events("feature-untagged", "tagged")).toHaveLength(1);
    const unknownType = await t.rest("PUT", "/api/admin/features/tagged/tags", {
      addedTags: [{ type: "no-such-type", value: "x1" }],
      removedTags: [{ type: "simple", value: "new-one" }],
    });
    expect(unknownType.status).toBe(404);
    expect((await t.rest("GET", "/api/admin/features/tagged/tags")).body.tags).toHaveLength(1);
    const missing = { addedTags: [], removedTags: [] };
    expect((await t.rest("PUT", "/api/admin/features/nope/tags", missing)).status).toBe(404);
    expect((await t.rest("PUT", "/api/admin/features/tagged/tags", missing, viewer)).status).toBe(403);
  });

  it("clone copies strategies (new groupId), variants and metadata, off everywhere", async () => {
    await createFlag(t, "original", { description: "the first", type: "experiment" });
    expect((await t.rest("POST", `${flag("original")}/environments/development/on`)).status).toBe(200);
    const variants = [{ name: "blue", weight: 1000, weightType: "variable", stickiness: "default" }];
    expect(
      (await t.rest("PUT", `${flag("original")}/environments/development/variants`, variants)).status,
    ).toBe(200);
    const res = await t.rest("POST", `${flag("original")}/clone`, { name: "copy", replaceGroupId: true });
    expect(res.status).toBe(201); // the running Unleash 8.2 answers 201 (D-20)
    expect(res.body).toMatchObject({ name: "copy", type: "experiment", description: "the first" });
    const dev = res.body.environments.find((e: { name: string }) => e.name === "development");
    expect(dev.enabled).toBe(false);
    expect(dev.strategies).toEqual([
      expect.objectContaining({
        name: "flexibleRollout",
        parameters: expect.objectContaining({ groupId: "copy" }),
      }),
    ]);
    expect(dev.variants).toEqual([expect.objectContaining({ name: "blue", weight: 1000 })]);
    expect(await events("feature-created", "copy")).toHaveLength(1);
    expect(await events("feature-strategy-add", "copy")).toHaveLength(1);
    const keep = await t.rest("POST", `${flag("original")}/clone`, { name: "copy-2", replaceGroupId: false });
    const keptDev = keep.body.environments.find((e: { name: string }) => e.name === "development");
    expect(keptDev.strategies[0].parameters.groupId).toBe("original");
    expect((await t.rest("POST", `${flag("original")}/clone`, { name: "copy" })).status).toBe(409);
    expect((await t.rest("POST", `${flag("nope")}/clone`, { name: "copy-3" })).status).toBe(404);
    expect((await t.rest("POST", `${flag("original")}/clone`, {})).status).toBe(400);
    expect((await t.rest("POST", `${flag("original")}/clone`, { name: "copy-4" }, viewer)).status).toBe(403);
  });

  it("PATCH a strategy with JSON Patch: feature-strategy-update, 400 for a failing test op", async () => {
    await createFlag(t, "patched");
    const added = await t.rest("POST", `${flag("patched")}/environments/development/strategies`, {
      name: "flexibleRollout",
      parameters: { rollout: "50", stickiness: "default" },
    });
    expect(added.status).toBe(200);
    const path = `${flag("patched")}/environments/development/strategies/${added.body.id}`;
    const res = await t.rest("PATCH", path, [
      { op: "replace", path: "/parameters/rollout", value: "75" },
      { op: "add", path: "/constraints/-", value: { contextName: "userId", operator: "IN", values: ["7"] } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: added.body.id,
      parameters: { rollout: "75", groupId: "patched" },
      constraints: [expect.objectContaining({ contextName: "userId", values: ["7"] })],
    });
    expect(await events("feature-strategy-update", "patched")).toHaveLength(1);
    const failing = await t.rest("PATCH", path, [{ op: "test", path: "/parameters/rollout", value: "10" }]);
    expect(failing.status).toBe(400);
    expect((await t.rest("PATCH", path, { op: "replace" })).status).toBe(400);
    const unknown = `${flag("patched")}/environments/development/strategies/00000000-0000-4000-8000-000000000000`;
    expect((await t.rest("PATCH", unknown, [])).status).toBe(404);
    expect((await t.rest("PATCH", path, [], viewer)).status).toBe(403);
  });

  it("PATCH variants with JSON Patch: appended and rebalanced, {version, variants}", async () => {
    await createFlag(t, "variant-patch");
    const path = `${flag("variant-patch")}/environments/development/variants`;
    const first = await t.rest("PATCH", path, [
      {
        op: "add",
        path: "/-",
        value: { name: "a", weight: 0, weightType: "variable", stickiness: "default" },
      },
    ]);
    expect(first).toMatchObject({
      status: 200,
      body: { version: 1, variants: [{ name: "a", weight: 1000 }] },
    });
    const second = await t.rest("PATCH", path, [
      {
        op: "add",
        path: "/-",
        value: { name: "b", weight: 0, weightType: "variable", stickiness: "default" },
      },
    ]);
    expect(second.body.variants.map((v: { weight: number }) => v.weight)).toEqual([500, 500]);
    expect(await events("feature-environment-variants-updated", "variant-patch")).toHaveLength(2);
    expect((await t.rest("PATCH", path, [{ op: "remove", path: "/7" }])).status).toBe(400);
    expect((await t.rest("PATCH", `${flag("variant-patch")}/environments/nowhere/variants`, [])).status).toBe(
      404,
    );
    expect((await t.rest("PATCH", path, [], viewer)).status).toBe(403);
  });

  it("variants-batch writes the same variants to several environments", async () => {
    await createFlag(t, "batch");
    const variants = [{ name: "x", weight: 0, weightType: "variable", stickiness: "default" }];
    const res = await t.rest("PUT", `${flag("batch")}/variants-batch`, {
      variants,
      environments: ["development", "production"],
    });
    expect(res).toMatchObject({ status: 200, body: { version: 1, variants: [{ name: "x", weight: 1000 }] } });
    expect(await events("feature-environment-variants-updated", "batch")).toHaveLength(2);
    const partly = await t.rest("PUT", `${flag("batch")}/variants-batch`, {
      variants: [],
      environments: ["development", "nowhere"],
    });
    expect(partly.status).toBe(404);
    const dev = await t.rest("GET", `${flag("batch")}/environments/development/variants`);
    expect(dev.body.variants).toHaveLength(1);
    const denied = await t.rest(
      "PUT",
      `${flag("batch")}/variants-batch`,
      { variants, environments: ["development"] },
      viewer,
    );
    expect(denied.status).toBe(403);
  });
});

describe("lifecycle counts and flag type lifetimes", () => {
  it("counts each flag once in its current stage", async () => {
    const before = await t.rest("GET", "/api/admin/lifecycle/count");
    expect(before.status).toBe(200);
    await createFlag(t, "life-1");
    await createFlag(t, "life-2");
    expect((await t.rest("POST", `${flag("life-2")}/lifecycle/complete`, { status: "kept" })).status).toBe(
      200,
    );
    expect((await t.rest("DELETE", flag("life-1"))).status).toBe(202);
    const after = await t.rest("GET", "/api/admin/lifecycle/count");
    expect(after.body).toEqual({
      ...before.body,
      completed: before.body.completed + 1,
      archived: before.body.archived + 1,
    });
  });

  it("sets a type's lifetime (0 means never), feature-type-updated; 404 unknown; 403 for a viewer", async () => {
    const res = await t.rest("PUT", "/api/admin/feature-types/release/lifetime", { lifetimeDays: 12 });
    expect(res).toMatchObject({ status: 200, body: { id: "release", lifetimeDays: 12 } });
    const never = await t.rest("PUT", "/api/admin/feature-types/release/lifetime", { lifetimeDays: 0 });
    expect(never.body.lifetimeDays).toBeNull();
    expect(await events("feature-type-updated")).toHaveLength(2);
    const types = await t.rest("GET", "/api/admin/feature-types");
    expect(types.body.types.find((x: { id: string }) => x.id === "release").lifetimeDays).toBeNull();
    expect((await t.rest("PUT", "/api/admin/feature-types/nope/lifetime", { lifetimeDays: 3 })).status).toBe(
      404,
    );
    expect(
      (await t.rest("PUT", "/api/admin/feature-types/release/lifetime", { lifetimeDays: -1 })).status,
    ).toBe(400);
    expect((await t.rest("PUT", "/api/admin/feature-types/release/lifetime", {})).status).toBe(400);
    const denied = await t.rest(
      "PUT",
      "/api/admin/feature-types/release/lifetime",
      { lifetimeDays: 3 },
      viewer,
    );
    expect(denied.status).toBe(403);
  });
});

/**
 * Read-check-write under concurrency: on PostgreSQL (TEST_DATABASE_URL) the requests really
 * overlap at READ COMMITTED; on PGlite they run one at a time and the answers must be the same.
 */
describe("concurrent bulk toggles and clones", () => {
  const times = <T>(n: number, fn: (i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: n }, (_, i) => fn(i)));

  it("20 bulk 'on' over overlapping sets in different orders: no error, one strategy and one event per flag", async () => {
    const names = ["race-a", "race-b", "race-c", "race-d"];
    for (const name of names) await createFlag(t, name);
    const results = await times(20, (i) =>
      t.rest("POST", `${PROJECT}/bulk_features/environments/production/on`, {
        features: i % 2 === 0 ? names : [...names].reverse().slice(0, 3),
      }),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    for (const name of names) {
      expect(await enabledIn(name, "production")).toBe(true);
      expect(await events("feature-environment-enabled", name)).toHaveLength(1);
      const strategies = await t.database.prisma.featureStrategy.count({
        where: { featureName: name, environmentName: "production" },
      });
      expect(strategies).toBe(1);
    }
  });

  it("10 clones to one new name: one 201, the others 409, one copy with one set of strategies", async () => {
    await createFlag(t, "clone-source");
    expect((await t.rest("POST", `${flag("clone-source")}/environments/development/on`)).status).toBe(200);
    const results = await times(10, () =>
      t.rest("POST", `${flag("clone-source")}/clone`, { name: "clone-race" }),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 201).every((s) => s === 409)).toBe(true);
    expect(await events("feature-created", "clone-race")).toHaveLength(1);
    expect(await t.database.prisma.featureStrategy.count({ where: { featureName: "clone-race" } })).toBe(1);
  });
});
