import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { userWithPat } from "../helpers/builders.ts";

/**
 * Unleash's strategies-by-context-field reads and the "set a strategy's segments" write
 * (issue 14). Every answer is also checked against its route's response schema.
 */
let t: TestApp;
let viewer: string;
let strategyId: string;
let segmentA: number;
let segmentB: number;
const FLAG = "/api/admin/projects/default/features/ctx-flag";

beforeAll(async () => {
  t = await createTestApp();
  viewer = (await userWithPat(t, "ctx-viewer", "Viewer")).token;
  expect((await t.rest("POST", "/api/admin/projects/default/features", { name: "ctx-flag" })).status).toBe(
    201,
  );
  const strategy = await t.rest("POST", `${FLAG}/environments/development/strategies`, {
    name: "flexibleRollout",
    parameters: { rollout: "50", stickiness: "default", groupId: "ctx-flag" },
    constraints: [{ contextName: "userId", operator: "IN", values: ["1", "2"] }],
  });
  expect(strategy.status).toBe(200);
  strategyId = strategy.body.id;
  const plain = await t.rest("POST", `${FLAG}/environments/production/strategies`, { name: "default" });
  expect(plain.status).toBe(200);
  for (const name of ["seg-a", "seg-b"]) {
    const res = await t.rest("POST", "/api/admin/segments", {
      name,
      constraints: [{ contextName: "appName", operator: "IN", values: ["web"] }],
    });
    expect(res.status).toBe(201);
    if (name === "seg-a") segmentA = res.body.id;
    else segmentB = res.body.id;
  }
});
afterAll(() => t?.close());

describe("strategies by context field", () => {
  it("lists the strategies with a constraint on the field, instance-wide and per project", async () => {
    const expected = {
      strategies: [
        {
          id: strategyId,
          featureName: "ctx-flag",
          projectId: "default",
          environment: "development",
          strategyName: "flexibleRollout",
        },
      ],
    };
    expect(await t.rest("GET", "/api/admin/context/userId/strategies")).toMatchObject({
      status: 200,
      body: expected,
    });
    expect((await t.rest("GET", "/api/admin/projects/default/context/userId/strategies")).body).toEqual(
      expected,
    );
    // A field no strategy constrains (segments' constraints are not counted), an unknown field.
    expect((await t.rest("GET", "/api/admin/context/appName/strategies")).body).toEqual({ strategies: [] });
    expect((await t.rest("GET", "/api/admin/context/nothing/strategies")).body).toEqual({ strategies: [] });
    expect((await t.rest("GET", "/api/admin/projects/other/context/userId/strategies")).body).toEqual({
      strategies: [],
    });
    expect((await t.rest("GET", "/api/admin/context/userId/strategies", undefined, null)).status).toBe(401);
  });
});

describe("POST /api/admin/segments/strategies", () => {
  const body = () => ({
    projectId: "default",
    strategyId,
    environmentId: "development",
    segmentIds: [segmentB, segmentA],
  });

  it("sets the strategy's segments exactly: 201, feature-strategy-update, visible on the strategy", async () => {
    const res = await t.rest("POST", "/api/admin/segments/strategies", body());
    expect(res).toMatchObject({
      status: 201,
      body: {
        projectId: "default",
        strategyId,
        environmentId: "development",
        segmentIds: [segmentA, segmentB],
      },
    });
    const strategy = await t.rest("GET", `${FLAG}/environments/development/strategies/${strategyId}`);
    expect(strategy.body.segments).toEqual([segmentA, segmentB]);
    const events = await t.database.prisma.event.findMany({
      where: { type: "feature-strategy-update", featureName: "ctx-flag" },
    });
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({ segments: [segmentA, segmentB] });
    expect(events[0]?.preData).toMatchObject({ segments: [] });
    // The same list again changes nothing; a shorter list removes the others.
    expect((await t.rest("POST", "/api/admin/segments/strategies", body())).status).toBe(201);
    expect(await t.database.prisma.event.count({ where: { type: "feature-strategy-update" } })).toBe(1);
    const fewer = await t.rest("POST", "/api/admin/segments/strategies", {
      ...body(),
      segmentIds: [segmentB],
    });
    expect(fewer.body.segmentIds).toEqual([segmentB]);
    expect((await t.rest("GET", `/api/admin/segments/${segmentA}/strategies`)).body).toEqual({
      strategies: [],
    });
  });

  it("404 for a strategy elsewhere or unknown, 400 for a bad body or unknown segment, 403 for a viewer", async () => {
    expect(
      (await t.rest("POST", "/api/admin/segments/strategies", { ...body(), environmentId: "production" }))
        .status,
    ).toBe(404);
    expect(
      (await t.rest("POST", "/api/admin/segments/strategies", { ...body(), strategyId: "nope" })).status,
    ).toBe(404);
    expect(
      (await t.rest("POST", "/api/admin/segments/strategies", { ...body(), segmentIds: "x" })).status,
    ).toBe(400);
    expect((await t.rest("POST", "/api/admin/segments/strategies", { projectId: "default" })).status).toBe(
      400,
    );
    const unknown = await t.rest("POST", "/api/admin/segments/strategies", {
      ...body(),
      segmentIds: [99999],
    });
    expect([400, 404]).toContain(unknown.status);
    expect((await t.rest("POST", "/api/admin/segments/strategies", body(), viewer)).status).toBe(403);
    expect((await t.rest("POST", "/api/admin/segments/strategies", body(), null)).status).toBe(401);
    const strategy = await t.rest("GET", `${FLAG}/environments/development/strategies/${strategyId}`);
    expect(strategy.body.segments).toEqual([segmentB]);
  });
});
