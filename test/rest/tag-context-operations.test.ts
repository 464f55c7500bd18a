import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag, userWithPat } from "../helpers/builders.ts";

/**
 * Unleash's bulk tagging, name checks (tag types, segments, context fields), segment usage,
 * dependency options and legal values (issue 14). Answers are checked against each route's
 * response schema.
 */
let t: TestApp;
let viewer: string;
beforeAll(async () => {
  t = await createTestApp();
  viewer = (await userWithPat(t, "usage-viewer", "Viewer")).token;
});
afterAll(() => t.close());

const PROJECT = "/api/admin/projects/default";
const events = (type: string, where: Record<string, unknown> = {}) =>
  t.database.prisma.event.findMany({ where: { type, ...where } });

describe("tags", () => {
  it("bulk tagging adds and removes on every flag, all or nothing", async () => {
    await createFlag(t, "bulk-tag-a");
    await createFlag(t, "bulk-tag-b");
    const body = {
      features: ["bulk-tag-a", "bulk-tag-b"],
      tags: { addedTags: [{ type: "simple", value: "team-x" }], removedTags: [] },
    };
    expect(await t.rest("PUT", `${PROJECT}/tags`, body)).toMatchObject({ status: 200, body: undefined });
    for (const name of ["bulk-tag-a", "bulk-tag-b"]) {
      expect((await t.rest("GET", `/api/admin/features/${name}/tags`)).body.tags).toEqual([
        { type: "simple", value: "team-x", color: null },
      ]);
    }
    expect(await events("feature-tagged", { featureName: "bulk-tag-b" })).toHaveLength(1);
    const swap = {
      features: ["bulk-tag-a", "no-such-flag"],
      tags: {
        addedTags: [{ type: "simple", value: "team-y" }],
        removedTags: [{ type: "simple", value: "team-x" }],
      },
    };
    expect((await t.rest("PUT", `${PROJECT}/tags`, swap)).status).toBe(404);
    expect((await t.rest("GET", "/api/admin/features/bulk-tag-a/tags")).body.tags).toEqual([
      { type: "simple", value: "team-x", color: null },
    ]);
    expect((await t.rest("PUT", `${PROJECT}/tags`, { features: ["bulk-tag-a"] })).status).toBe(400);
    expect((await t.rest("PUT", `${PROJECT}/tags`, body, viewer)).status).toBe(403);
  });

  it("a tag type: {valid, tagType} when free, 409 when taken, 400 malformed, 403 for a viewer", async () => {
    const ok = await t.rest("POST", "/api/admin/tag-types/validate", {
      name: "team",
      description: "Owning team",
    });
    expect(ok).toMatchObject({
      status: 200,
      body: { valid: true, tagType: { name: "team", description: "Owning team" } },
    });
    expect((await t.rest("POST", "/api/admin/tag-types/validate", { name: "simple" })).status).toBe(409);
    expect((await t.rest("POST", "/api/admin/tag-types/validate", { name: "x" })).status).toBe(400);
    expect((await t.rest("POST", "/api/admin/tag-types/validate", { name: "team" }, viewer)).status).toBe(
      403,
    );
  });
});

describe("segments", () => {
  it("name check, the strategies using a segment, the segments of a strategy", async () => {
    const segment = await t.rest("POST", "/api/admin/segments", {
      name: "usage-seg",
      constraints: [{ contextName: "userId", operator: "IN", values: ["1"] }],
    });
    expect(segment.status).toBe(201);
    expect((await t.rest("POST", "/api/admin/segments/validate", { name: "free-seg" })).status).toBe(204);
    expect((await t.rest("POST", "/api/admin/segments/validate", { name: "usage-seg" })).status).toBe(409);
    expect((await t.rest("POST", "/api/admin/segments/validate", {})).status).toBe(400);
    await createFlag(t, "seg-user");
    const strategy = await t.rest(
      "POST",
      `${PROJECT}/features/seg-user/environments/development/strategies`,
      {
        name: "default",
        segments: [segment.body.id],
      },
    );
    expect(strategy.status).toBe(200);
    const uses = await t.rest("GET", `/api/admin/segments/${segment.body.id}/strategies`);
    expect(uses).toMatchObject({
      status: 200,
      body: {
        strategies: [
          {
            id: strategy.body.id,
            featureName: "seg-user",
            projectId: "default",
            environment: "development",
            strategyName: "default",
          },
        ],
      },
    });
    expect((await t.rest("GET", "/api/admin/segments/98765/strategies")).body).toEqual({ strategies: [] });
    expect((await t.rest("GET", "/api/admin/segments/abc/strategies")).status).toBe(400);
    const ofStrategy = await t.rest("GET", `/api/admin/segments/strategies/${strategy.body.id}`);
    expect(ofStrategy.body.segments.map((s: { name: string }) => s.name)).toEqual(["usage-seg"]);
    expect((await t.rest("GET", "/api/admin/segments/strategies/unknown-id")).body).toEqual({ segments: [] });
  });
});

describe("dependencies", () => {
  it("whether any exist, possible parents (no transitive), a parent's variant names", async () => {
    expect((await t.rest("GET", `${PROJECT}/dependencies`)).body).toBe(false);
    for (const name of ["dep-parent", "dep-child", "dep-other"]) await createFlag(t, name);
    const variants = [{ name: "green", weight: 1000, weightType: "variable", stickiness: "default" }];
    expect(
      (await t.rest("PUT", `${PROJECT}/features/dep-parent/environments/development/variants`, variants))
        .status,
    ).toBe(200);
    expect(
      (
        await t.rest("POST", `${PROJECT}/features/dep-parent/environments/production/strategies`, {
          name: "flexibleRollout",
          parameters: { rollout: "100" },
          variants: [{ name: "red", weight: 1000, weightType: "variable", stickiness: "default" }],
        })
      ).status,
    ).toBe(200);
    expect(
      (await t.rest("POST", `${PROJECT}/features/dep-child/dependencies`, { feature: "dep-parent" })).status,
    ).toBe(200);
    expect((await t.rest("GET", `${PROJECT}/dependencies`)).body).toBe(true);
    const parents = await t.rest("GET", `${PROJECT}/features/dep-other/parents`);
    expect(parents.status).toBe(200);
    expect(parents.body).toContain("dep-parent");
    expect(parents.body).not.toContain("dep-child");
    expect(parents.body).not.toContain("dep-other");
    const options = await t.rest("GET", `${PROJECT}/features/dep-parent/parent-variants`);
    expect(options.body).toEqual(["green", "red"]);
    expect((await t.rest("GET", `${PROJECT}/features/nope/parents`)).status).toBe(404);
    expect((await t.rest("GET", `${PROJECT}/features/nope/parent-variants`)).status).toBe(404);
  });
});

describe("context fields", () => {
  it("name check: 200 free, 409 taken, 400 malformed", async () => {
    expect((await t.rest("POST", "/api/admin/context", { name: "tier" })).status).toBe(201);
    expect(await t.rest("POST", "/api/admin/context/validate", { name: "plan" })).toMatchObject({
      status: 200,
      body: undefined,
    });
    expect((await t.rest("POST", "/api/admin/context/validate", { name: "tier" })).status).toBe(409);
    expect((await t.rest("POST", "/api/admin/context/validate", { name: "no spaces" })).status).toBe(400);
  });

  it("adds, updates and removes one legal value; context-field-updated each; 404 unknown field", async () => {
    expect((await t.rest("POST", "/api/admin/context", { name: "country" })).status).toBe(201);
    const path = "/api/admin/context/country/legal-values";
    expect(await t.rest("POST", path, { value: "NO" })).toMatchObject({ status: 200, body: undefined });
    expect((await t.rest("POST", path, { value: "SE", description: "Sweden" })).status).toBe(200);
    expect((await t.rest("POST", path, { value: "NO", description: "Norway" })).status).toBe(200);
    expect((await t.rest("GET", "/api/admin/context/country")).body.legalValues).toEqual([
      { value: "NO", description: "Norway" },
      { value: "SE", description: "Sweden" },
    ]);
    expect(await t.rest("DELETE", `${path}/SE`)).toMatchObject({ status: 200, body: undefined });
    expect((await t.rest("DELETE", `${path}/not-there`)).status).toBe(200);
    expect((await t.rest("GET", "/api/admin/context/country")).body.legalValues).toEqual([
      { value: "NO", description: "Norway" },
    ]);
    expect(
      await events("context-field-updated", { data: { path: ["name"], equals: "country" } }),
    ).toHaveLength(4);
    expect((await t.rest("POST", "/api/admin/context/nope/legal-values", { value: "x" })).status).toBe(404);
    expect((await t.rest("DELETE", "/api/admin/context/nope/legal-values/x")).status).toBe(404);
    expect((await t.rest("POST", path, {})).status).toBe(400);
    expect((await t.rest("POST", path, { value: "DK" }, viewer)).status).toBe(403);
    expect((await t.rest("DELETE", `${path}/NO`, undefined, viewer)).status).toBe(403);
  });

  it("20 concurrent additions of different legal values keep all of them, one event each", async () => {
    expect((await t.rest("POST", "/api/admin/context", { name: "city" })).status).toBe(201);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.rest("POST", "/api/admin/context/city/legal-values", { value: `city-${i}` }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const field = await t.rest("GET", "/api/admin/context/city");
    expect(field.body.legalValues.map((v: { value: string }) => v.value).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `city-${i}`).sort(),
    );
    expect(await events("context-field-updated", { data: { path: ["name"], equals: "city" } })).toHaveLength(
      20,
    );
  });
});
