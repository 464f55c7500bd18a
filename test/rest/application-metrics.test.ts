import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, withClock } from "../helpers/app.ts";
import { apiToken, reportMetrics, userWithPat } from "../helpers/builders.ts";

/**
 * Unleash's per-application metrics paths (issue 14): overview, recent instances, outdated
 * SDKs, and an admin's application metadata, with applications known from real SDK calls.
 * Every answer is also checked against its route's response schema (checkRestResponses).
 */
let t: TestApp;
let viewer: string;
let devToken: string;
let frontendToken: string;

const register = (secret: string, instanceId: string, sdkVersion: string, strategies: string[]) =>
  t.rest(
    "POST",
    "/api/client/register",
    {
      appName: "web",
      instanceId,
      sdkVersion,
      strategies,
      started: new Date().toISOString(),
      interval: 15000,
    },
    secret,
  );

beforeAll(async () => {
  t = await createTestApp({ VEXIL_METRICS_FLUSH_MS: "0" });
  viewer = (await userWithPat(t, "apps-viewer", "Viewer")).token;
  expect((await t.rest("POST", "/api/admin/projects/default/features", { name: "app-flag" })).status).toBe(
    201,
  );
  devToken = await apiToken(t, "client", "development", ["*"]);
  frontendToken = await apiToken(t, "frontend", "development", ["*"]);
  expect(
    (await register(devToken, "web-1", "unleash-client-node:4.0.0", ["default", "my-custom"])).status,
  ).toBeLessThan(300);
  expect((await register(devToken, "web-2", "unleash-client-node:6.6.0", ["default"])).status).toBeLessThan(
    300,
  );
  const metrics = await reportMetrics(t, devToken, { "app-flag": { yes: 1, no: 0 } });
  expect(metrics).toBe(202);
  const frontend = await t.rest(
    "POST",
    "/api/frontend/client/register",
    {
      appName: "web",
      instanceId: "browser-1",
      sdkVersion: "unleash-proxy-client:3.6.0",
      started: new Date().toISOString(),
      interval: 15000,
    },
    frontendToken,
  );
  expect(frontend.status).toBeLessThan(300);
});
afterAll(() => t?.close());

describe("application metrics", () => {
  it("overview: projects, flags, environments with SDKs and issues; 404 for an unknown application", async () => {
    const res = await t.rest("GET", "/api/admin/metrics/applications/web/overview");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      projects: ["default"],
      featureCount: 1,
      environments: [
        {
          name: "development",
          instanceCount: 3,
          sdks: ["unleash-client-node:4.0.0", "unleash-client-node:6.6.0", "unleash-proxy-client:3.6.0"],
          frontendSdks: ["unleash-proxy-client:3.6.0"],
          backendSdks: ["unleash-client-node:4.0.0", "unleash-client-node:6.6.0"],
          lastSeen: expect.any(String),
          issues: { missingFeatures: [], outdatedSdks: ["unleash-client-node:4.0.0"] },
        },
      ],
      issues: { missingStrategies: ["my-custom"] },
    });
    expect((await t.rest("GET", "/api/admin/metrics/applications/nope/overview")).status).toBe(404);
    expect(
      (await t.rest("GET", "/api/admin/metrics/applications/web/overview", undefined, null)).status,
    ).toBe(401);
  });

  it("instances of the last 24 hours in one environment, most recent first", async () => {
    const res = await t.rest("GET", "/api/admin/metrics/instances/web/environment/development");
    expect(res.status).toBe(200);
    expect(res.body.instances.map((i: { instanceId: string }) => i.instanceId).sort()).toEqual([
      "browser-1",
      "web-1",
      "web-2",
    ]);
    expect(res.body.instances).toContainEqual({
      instanceId: "web-1",
      sdkVersion: "unleash-client-node:4.0.0",
      clientIp: null,
      lastSeen: expect.any(String),
    });
    // A day and an hour later, only web-1 has registered again.
    const recent = await withClock(t, new Date(Date.now() + 25 * 3_600_000), async () => {
      expect(
        (await register(devToken, "web-1", "unleash-client-node:4.0.0", ["default", "my-custom"])).status,
      ).toBeLessThan(300);
      return t.rest("GET", "/api/admin/metrics/instances/web/environment/development");
    });
    expect(recent.body.instances.map((i: { instanceId: string }) => i.instanceId)).toEqual(["web-1"]);
    expect((await t.rest("GET", "/api/admin/metrics/instances/web/environment/production")).body).toEqual({
      instances: [],
    });
    expect((await t.rest("GET", "/api/admin/metrics/instances/nope/environment/development")).status).toBe(
      404,
    );
  });

  it("outdated SDKs across the instance", async () => {
    const res = await t.rest("GET", "/api/admin/metrics/sdks/outdated");
    expect(res).toMatchObject({
      status: 200,
      body: { sdks: [{ sdkVersion: "unleash-client-node:4.0.0", applications: ["web"] }] },
    });
  });

  it("an admin sets an application's metadata (202, application-created) and deletes it (200)", async () => {
    const body = { url: "https://web.example.com", color: "#ff0000", icon: "globe", strategies: ["gradual"] };
    expect((await t.rest("POST", "/api/admin/metrics/applications/web", body, viewer)).status).toBe(403);
    const res = await t.rest("POST", "/api/admin/metrics/applications/web", body);
    expect(res).toMatchObject({ status: 202, body: undefined });
    const app = await t.rest("GET", "/api/admin/metrics/applications/web");
    expect(app.body).toMatchObject({ appName: "web", url: body.url, color: "#ff0000", icon: "globe" });
    expect(app.body.strategies).toEqual(["default", "gradual", "my-custom"]);
    const events = await t.database.prisma.event.findMany({ where: { type: "application-created" } });
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({ appName: "web", url: body.url });
    // The same metadata again changes nothing and records nothing.
    expect((await t.rest("POST", "/api/admin/metrics/applications/web", body)).status).toBe(202);
    expect(await t.database.prisma.event.count({ where: { type: "application-created" } })).toBe(1);
    // A new application by an admin.
    expect(
      (await t.rest("POST", "/api/admin/metrics/applications/planned", { url: "https://p.example" })).status,
    ).toBe(202);
    expect((await t.rest("GET", "/api/admin/metrics/applications/planned")).body).toMatchObject({
      url: "https://p.example",
    });
    expect(
      (await t.rest("POST", "/api/admin/metrics/applications/planned", { strategies: "x" })).status,
    ).toBe(400);

    expect(
      (await t.rest("DELETE", "/api/admin/metrics/applications/planned", undefined, viewer)).status,
    ).toBe(403);
    expect(await t.rest("DELETE", "/api/admin/metrics/applications/planned")).toMatchObject({
      status: 200,
      body: undefined,
    });
    expect((await t.rest("GET", "/api/admin/metrics/applications/planned")).status).toBe(404);
    expect((await t.rest("DELETE", "/api/admin/metrics/applications/planned")).status).toBe(200);
  });
});

describe("GET /api/admin/metrics/unknown-flags", () => {
  const report = (toggles: Parameters<typeof reportMetrics>[2], appName = "web") =>
    reportMetrics(t, devToken, toggles, { appName });

  it("names SDKs report that no flag has, per application and environment, until a flag takes the name", async () => {
    expect((await t.rest("GET", "/api/admin/metrics/unknown-flags")).body).toEqual({ unknownFlags: [] });
    expect(await report({ ghost: { yes: 1, no: 0 }, "app-flag": { yes: 1, no: 0 } })).toBe(202);
    expect(await report({ ghost: { yes: 0, no: 2 } }, "api")).toBe(202);
    const overview = await t.rest("GET", "/api/admin/metrics/applications/web/overview");
    expect(overview.body.environments[0].issues.missingFeatures).toEqual(["ghost"]);
    const res = await t.rest("GET", "/api/admin/metrics/unknown-flags");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      unknownFlags: [
        {
          name: "ghost",
          lastSeenAt: expect.any(String),
          lastEventAt: null,
          reports: [
            { appName: "api", environments: [{ environment: "development", seenAt: expect.any(String) }] },
            { appName: "web", environments: [{ environment: "development", seenAt: expect.any(String) }] },
          ],
        },
      ],
    });
    // Creating a flag of that name makes it known.
    expect((await t.rest("POST", "/api/admin/projects/default/features", { name: "ghost" })).status).toBe(
      201,
    );
    expect((await t.rest("GET", "/api/admin/metrics/unknown-flags")).body).toEqual({ unknownFlags: [] });
    expect((await t.rest("GET", "/api/admin/metrics/unknown-flags", undefined, null)).status).toBe(401);
  });

  it("a name reported more than 24 hours ago is no longer listed; a deleted flag's name shows its last event", async () => {
    const then = await withClock(t, new Date(Date.now() - 25 * 3_600_000), async () => {
      expect(await report({ "old-ghost": { yes: 1, no: 0 } })).toBe(202);
      return t.rest("GET", "/api/admin/metrics/unknown-flags");
    });
    expect(then.body.unknownFlags.map((f: { name: string }) => f.name)).toEqual(["old-ghost"]);
    expect((await t.rest("GET", "/api/admin/metrics/unknown-flags")).body).toEqual({ unknownFlags: [] });

    expect((await t.rest("POST", "/api/admin/projects/default/features", { name: "gone" })).status).toBe(201);
    expect((await t.rest("DELETE", "/api/admin/projects/default/features/gone")).status).toBe(202);
    expect((await t.rest("DELETE", "/api/admin/archive/gone")).status).toBe(200);
    expect(await report({ gone: { yes: 1, no: 0 } })).toBe(202);
    const res = await t.rest("GET", "/api/admin/metrics/unknown-flags");
    const lastEvent = await t.database.prisma.event.findFirst({
      where: { featureName: "gone" },
      orderBy: { id: "desc" },
    });
    expect(res.body.unknownFlags).toEqual([
      expect.objectContaining({ name: "gone", lastEventAt: lastEvent?.createdAt.toISOString() }),
    ]);
  });
});
