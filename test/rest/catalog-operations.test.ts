import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { userWithPat } from "../helpers/builders.ts";

/**
 * Unleash's single-flag archive paths, environment order and availability, and the legacy
 * event list (issue 14). Answers are checked against each route's response schema.
 */
let t: TestApp;
let viewer: string;
beforeAll(async () => {
  t = await createTestApp();
  viewer = (await userWithPat(t, "catalog-viewer", "Viewer")).token;
});
afterAll(() => t.close());

const PROJECT = "/api/admin/projects/default";
const events = (type: string, where: Record<string, unknown> = {}) =>
  t.database.prisma.event.findMany({ where: { type, ...where }, orderBy: { id: "asc" } });

async function archivedFlag(name: string) {
  expect((await t.rest("POST", `${PROJECT}/features`, { name })).status).toBe(201);
  expect((await t.rest("DELETE", `${PROJECT}/features/${name}`)).status).toBe(202);
}

describe("archive by flag name", () => {
  it("revives an archived flag: 200 without a body, feature-revived, readable again", async () => {
    await archivedFlag("revive-me");
    const denied = await t.rest("POST", "/api/admin/archive/revive/revive-me", undefined, viewer);
    expect(denied).toMatchObject({ status: 403, body: { name: "NoAccessError" } });
    const res = await t.rest("POST", "/api/admin/archive/revive/revive-me");
    expect(res).toMatchObject({ status: 200, body: undefined });
    expect(await events("feature-revived", { featureName: "revive-me" })).toHaveLength(1);
    expect((await t.rest("GET", `${PROJECT}/features/revive-me`)).status).toBe(200);
    expect((await t.rest("POST", "/api/admin/archive/revive/revive-me")).status).toBe(200);
    expect(await events("feature-revived", { featureName: "revive-me" })).toHaveLength(1);
    expect((await t.rest("POST", "/api/admin/archive/revive/no-such-flag")).status).toBe(404);
  });

  it("deletes an archived flag for good; an active flag is left unchanged", async () => {
    await archivedFlag("delete-me");
    expect((await t.rest("DELETE", "/api/admin/archive/delete-me", undefined, viewer)).status).toBe(403);
    const res = await t.rest("DELETE", "/api/admin/archive/delete-me");
    expect(res).toMatchObject({ status: 200, body: undefined });
    expect(await events("feature-deleted", { featureName: "delete-me" })).toHaveLength(1);
    expect(await t.database.prisma.feature.findUnique({ where: { name: "delete-me" } })).toBeNull();
    expect((await t.rest("POST", `${PROJECT}/features`, { name: "active-one" })).status).toBe(201);
    expect((await t.rest("DELETE", "/api/admin/archive/active-one")).status).toBe(200);
    expect((await t.rest("GET", `${PROJECT}/features/active-one`)).status).toBe(200);
    expect((await t.rest("DELETE", "/api/admin/archive/no-such-flag")).status).toBe(404);
  });
});

describe("environments", () => {
  it("sort-order moves the named environments only, environment-updated each; 404 changes nothing", async () => {
    expect((await t.rest("POST", "/api/admin/environments", { name: "staging", type: "test" })).status).toBe(
      201,
    );
    const res = await t.rest("PUT", "/api/admin/environments/sort-order", {
      production: 1,
      staging: 2,
      development: 3,
    });
    expect(res).toMatchObject({ status: 200, body: undefined });
    const list = await t.rest("GET", "/api/admin/environments");
    expect(list.body.environments.map((e: { name: string }) => e.name)).toEqual([
      "production",
      "staging",
      "development",
    ]);
    const unknown = await t.rest("PUT", "/api/admin/environments/sort-order", { staging: 9, nowhere: 1 });
    expect(unknown.status).toBe(404);
    const staging = await t.rest("GET", "/api/admin/environments/staging");
    expect(staging.body.sortOrder).toBe(2);
    expect((await t.rest("PUT", "/api/admin/environments/sort-order", { staging: "first" })).status).toBe(
      400,
    );
    expect((await t.rest("PUT", "/api/admin/environments/sort-order", { staging: 4 }, viewer)).status).toBe(
      403,
    );
    expect((await events("environment-updated", { environment: "staging" })).length).toBeGreaterThan(0);
  });

  it("off and on: 204, the environment's enabled flag, one event per change; 404 unknown", async () => {
    expect((await t.rest("POST", "/api/admin/environments", { name: "qa", type: "test" })).status).toBe(201);
    expect((await t.rest("POST", "/api/admin/environments/qa/off", undefined, viewer)).status).toBe(403);
    expect((await t.rest("POST", "/api/admin/environments/qa/off")).status).toBe(204);
    expect((await t.rest("GET", "/api/admin/environments/qa")).body.enabled).toBe(false);
    expect((await t.rest("POST", "/api/admin/environments/qa/off")).status).toBe(204);
    expect(await events("environment-updated", { environment: "qa" })).toHaveLength(1);
    expect((await t.rest("POST", "/api/admin/environments/qa/on")).status).toBe(204);
    expect((await t.rest("GET", "/api/admin/environments/qa")).body.enabled).toBe(true);
    expect((await t.rest("POST", "/api/admin/environments/nowhere/on")).status).toBe(404);
  });

  it("concurrent sort-order calls over overlapping sets: no error, the final order is one call's", async () => {
    const orders = [
      { development: 10, production: 20 },
      { production: 5, development: 30 },
    ];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.rest("PUT", "/api/admin/environments/sort-order", orders[i % 2]),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const rows = await t.database.prisma.environment.findMany({
      where: { name: { in: ["development", "production"] } },
    });
    const final = Object.fromEntries(rows.map((r) => [r.name, r.sortOrder]));
    expect(orders).toContainEqual(final);
  });
});

describe("legacy event list and event creators", () => {
  it("the latest events, or a project's; {version, events, totalEvents}", async () => {
    const all = await t.rest("GET", "/api/admin/events");
    expect(all.status).toBe(200);
    expect(all.body.version).toBe(1);
    expect(all.body.events.length).toBeGreaterThan(0);
    expect(all.body.totalEvents).toBeGreaterThanOrEqual(all.body.events.length);
    const ids = all.body.events.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const project = await t.rest("GET", "/api/admin/events?project=default");
    expect(project.body.events.every((e: { project: string }) => e.project === "default")).toBe(true);
    expect(project.body.events.length).toBeLessThanOrEqual(50);
    expect((await t.rest("GET", "/api/admin/events?project=nope")).body).toEqual({
      version: 1,
      events: [],
      totalEvents: 0,
    });
    expect((await t.rest("GET", "/api/admin/events", undefined, null)).status).toBe(401);
  });

  it("event creators name the admin token and users", async () => {
    const res = await t.rest("GET", "/api/admin/event-creators");
    expect(res.status).toBe(200);
    expect(res.body).toContainEqual({ id: -42, name: "Unleash Admin Token" });
  });
});
