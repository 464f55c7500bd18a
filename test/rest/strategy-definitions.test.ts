import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { userWithPat } from "../helpers/builders.ts";

/**
 * Unleash's strategy types (`/api/admin/strategies`, issue 14): the built-ins and custom
 * definitions. Answers are checked against each route's response schema. The concurrency case
 * really overlaps on PostgreSQL (TEST_DATABASE_URL).
 */
let t: TestApp;
let viewer: string;
let editor: string;
beforeAll(async () => {
  t = await createTestApp();
  viewer = (await userWithPat(t, "sdef-viewer", "Viewer")).token;
  editor = (await userWithPat(t, "sdef-editor", "Editor")).token;
});
afterAll(() => t.close());

/** The events of this type about strategy type `name` (in their data or preData). */
const events = async (type: string, name = "betaRegion") =>
  (await t.database.prisma.event.findMany({ where: { type }, orderBy: { id: "asc" } })).filter((e) =>
    [e.data, e.preData].some((d) => (d as { name?: string } | null)?.name === name),
  );
const custom = {
  name: "betaRegion",
  description: "Users in the listed regions",
  parameters: [{ name: "regions", type: "list", description: "Region codes", required: true }],
};

describe("strategy types", () => {
  it("lists the built-ins first, not editable, to any caller", async () => {
    const res = await t.rest("GET", "/api/admin/strategies", undefined, viewer);
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    // The custom types other tests make come after the built-ins, and are editable.
    const strategies = res.body.strategies as { name: string; editable: boolean }[];
    const builtIns = strategies.slice(0, 5);
    expect(builtIns.map((s) => s.name)).toEqual([
      "default",
      "flexibleRollout",
      "userWithId",
      "remoteAddress",
      "applicationHostname",
    ]);
    expect(builtIns.every((s) => !s.editable)).toBe(true);
    expect(strategies.slice(5).every((s) => s.editable)).toBe(true);
    const one = await t.rest("GET", "/api/admin/strategies/flexibleRollout");
    expect(one.body).toMatchObject({
      name: "flexibleRollout",
      displayName: "Gradual rollout",
      deprecated: false,
    });
    expect(one.body.parameters.map((p: { name: string }) => p.name)).toEqual([
      "rollout",
      "stickiness",
      "groupId",
    ]);
    expect((await t.rest("GET", "/api/admin/strategies/nope")).status).toBe(404);
  });

  it("creates, changes and deletes a custom type, each with its event", async () => {
    const created = await t.rest(
      "POST",
      "/api/admin/strategies",
      { ...custom, editable: false, sendEmail: 1 },
      editor,
    );
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      name: "betaRegion",
      displayName: null,
      title: null,
      description: "Users in the listed regions",
      editable: true,
      deprecated: false,
      parameters: custom.parameters,
    });
    expect((await events("strategy-created")).map((e) => e.data)).toEqual([
      expect.objectContaining({ name: "betaRegion", editable: true }),
    ]);
    expect((await t.rest("POST", "/api/admin/strategies", custom)).status).toBe(409);
    expect((await t.rest("POST", "/api/admin/strategies", { ...custom, name: "default" })).status).toBe(409);

    const put = await t.rest("PUT", "/api/admin/strategies/betaRegion", {
      description: "Regions",
      parameters: [{ name: "regions", type: "list" }],
    });
    expect(put).toMatchObject({ status: 200, body: undefined });
    const read = await t.rest("GET", "/api/admin/strategies/betaRegion");
    expect(read.body).toMatchObject({
      description: "Regions",
      parameters: [{ name: "regions", type: "list", description: "", required: false }],
    });
    expect(await events("strategy-updated")).toHaveLength(1);
    // the same again changes nothing and records nothing
    await t.rest("PUT", "/api/admin/strategies/betaRegion", {
      description: "Regions",
      parameters: [{ name: "regions", type: "list" }],
    });
    expect(await events("strategy-updated")).toHaveLength(1);

    expect((await t.rest("DELETE", "/api/admin/strategies/betaRegion")).status).toBe(200);
    expect((await t.rest("GET", "/api/admin/strategies/betaRegion")).status).toBe(404);
    expect(await events("strategy-deleted")).toHaveLength(1);
    expect((await t.rest("DELETE", "/api/admin/strategies/betaRegion")).status).toBe(404);
  });

  it("refuses bad bodies (400), built-in changes (403) and Viewers (403)", async () => {
    expect(
      (await t.rest("POST", "/api/admin/strategies", { name: "no spaces", parameters: [] })).status,
    ).toBe(400);
    expect((await t.rest("POST", "/api/admin/strategies", { name: "x" })).status).toBe(400);
    expect(
      (
        await t.rest("POST", "/api/admin/strategies", {
          name: "x",
          parameters: [{ name: "p", type: "date" }],
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.rest("POST", "/api/admin/strategies", {
          name: "x",
          parameters: [
            { name: "p", type: "string" },
            { name: "p", type: "list" },
          ],
        })
      ).status,
    ).toBe(400);
    const builtIn = await t.rest("PUT", "/api/admin/strategies/default", { parameters: [] });
    expect(builtIn.status).toBe(403);
    expect((await t.rest("DELETE", "/api/admin/strategies/userWithId")).status).toBe(403);
    expect((await t.rest("PUT", "/api/admin/strategies/nope", { parameters: [] })).status).toBe(404);
    expect(
      (await t.rest("POST", "/api/admin/strategies", { ...custom, name: "viewerType" }, viewer)).status,
    ).toBe(403);
    expect((await t.rest("POST", "/api/admin/strategies/default/deprecate", undefined, viewer)).status).toBe(
      403,
    );
  });

  it("deprecates and reactivates (built-ins too), once each", async () => {
    expect((await t.rest("POST", "/api/admin/strategies/userWithId/deprecate")).status).toBe(200);
    expect((await t.rest("POST", "/api/admin/strategies/userWithId/deprecate")).status).toBe(200);
    expect((await t.rest("GET", "/api/admin/strategies/userWithId")).body.deprecated).toBe(true);
    expect(await events("strategy-deprecated", "userWithId")).toHaveLength(1);
    expect((await t.rest("POST", "/api/admin/strategies/userWithId/reactivate")).status).toBe(200);
    expect((await t.rest("GET", "/api/admin/strategies/userWithId")).body.deprecated).toBe(false);
    expect(await events("strategy-reactivated", "userWithId")).toHaveLength(1);
    expect((await t.rest("POST", "/api/admin/strategies/nope/deprecate")).status).toBe(404);
  });

  it("a custom type can be used on a flag; Vexil's own evaluation counts it off, as an SDK without it", async () => {
    expect((await t.rest("POST", "/api/admin/strategies", { ...custom, name: "regionGate" })).status).toBe(
      201,
    );
    expect(
      (await t.rest("POST", "/api/admin/projects/default/features", { name: "region-flag" })).status,
    ).toBe(201);
    const strategy = await t.rest(
      "POST",
      "/api/admin/projects/default/features/region-flag/environments/development/strategies",
      { name: "regionGate", parameters: { regions: "eu,us" } },
    );
    expect(strategy.status).toBe(200);
    expect(
      (await t.rest("POST", "/api/admin/projects/default/features/region-flag/environments/development/on"))
        .status,
    ).toBe(200);
    const play = await t.rest("POST", "/api/admin/playground", {
      environment: "development",
      projects: ["default"],
      context: { appName: "x", userId: "1" },
    });
    expect(play.status).toBe(200);
    const flag = play.body.features.find((f: { name: string }) => f.name === "region-flag");
    expect(flag.isEnabled).toBe(false);
  });

  it("two creates of one name at once: one 201, one 409, one event", async () => {
    const body = { ...custom, name: "raceType" };
    const results = await Promise.all([1, 2, 3].map(() => t.rest("POST", "/api/admin/strategies", body)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    for (const r of results.filter((r) => r.status === 409)) expect(r.body.name).toBe("NameExistsError");
    const created = await events("strategy-created", "raceType");
    expect(created).toHaveLength(1);
  });
});
