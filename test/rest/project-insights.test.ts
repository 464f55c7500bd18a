import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, withClock } from "../helpers/app.ts";
import { addProjectMember, apiToken, createProject, userWithPat } from "../helpers/builders.ts";

/**
 * Unleash's project pages beyond the overview (issue 14): flag creators, the personal
 * dashboard's project details, status, health report, insights, DORA lead time, applications
 * and outdated SDKs, over REST with real flags, events and SDK calls. Every answer is also
 * checked against its route's response schema (checkRestResponses).
 */
let t: TestApp;
let editor: string;
let editorId: number;
let clientToken: string;
const DAY = 86_400_000;
const P = "/api/admin/projects/default";

beforeAll(async () => {
  t = await createTestApp({ VEXIL_METRICS_FLUSH_MS: "0" });
  ({ id: editorId, token: editor } = await userWithPat(t, "insight-editor", "Editor", {
    email: null,
    name: "Ada Editor",
  }));
  // ins-a was created three days before it reached production.
  const insA = await withClock(t, new Date(Date.now() - 3 * DAY - 60_000), () =>
    t.rest("POST", `${P}/features`, { name: "ins-a" }, editor),
  );
  expect(insA.status).toBe(201);
  expect((await t.rest("POST", `${P}/features`, { name: "ins-b", type: "experiment" })).status).toBe(201);
  expect((await t.rest("POST", `${P}/features`, { name: "ins-c" }, editor)).status).toBe(201);
  expect((await t.rest("POST", `${P}/features/ins-a/environments/production/on`)).status).toBe(200);
  expect((await t.rest("POST", `${P}/features/ins-b/environments/development/on`)).status).toBe(200);
  expect(
    (await t.rest("PATCH", `${P}/features/ins-c`, [{ op: "replace", path: "/stale", value: true }])).status,
  ).toBe(200);
  clientToken = await apiToken(t, "client", "development", ["default"], "insights-sdk");
  const sdk = { appName: "shop", instanceId: "shop-1", connectionId: "c-1", platformName: "node" };
  const register = await t.rest(
    "POST",
    "/api/client/register",
    {
      ...sdk,
      sdkVersion: "unleash-client-node:5.0.0",
      strategies: ["default"],
      started: new Date().toISOString(),
      interval: 15000,
    },
    clientToken,
  );
  expect(register.status).toBeLessThan(300);
  const now = Date.now();
  const metrics = await t.rest(
    "POST",
    "/api/client/metrics",
    {
      ...sdk,
      bucket: {
        start: new Date(now - 60_000).toISOString(),
        stop: new Date(now).toISOString(),
        toggles: { "ins-a": { yes: 3, no: 1, variants: {} } },
      },
    },
    clientToken,
  );
  expect(metrics.status).toBe(202);
  await createProject(t, "empty", { name: "Empty" });
});
afterAll(() => t?.close());

describe("project pages", () => {
  it("flag creators: users who created the project's flags, once each, by name; 404, 403", async () => {
    const res = await t.rest("GET", `${P}/flag-creators`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ id: expect.any(Number), name: "Ada Editor" }]);
    expect((await t.rest("GET", "/api/admin/projects/nope/flag-creators")).status).toBe(404);
    expect((await t.rest("GET", `${P}/flag-creators`, undefined, null)).status).toBe(401);
    expect((await t.rest("GET", `${P}/flag-creators`, undefined, clientToken)).status).toBe(403);
  });

  it("DORA: days from creation to the first enabling in production; flags never there left out", async () => {
    const res = await t.rest("GET", `${P}/dora`);
    expect(res).toMatchObject({
      status: 200,
      body: { projectAverage: 3, features: [{ name: "ins-a", timeToProduction: 3 }] },
    });
    expect((await t.rest("GET", "/api/admin/projects/empty/dora")).body).toEqual({ features: [] });
    expect((await t.rest("GET", "/api/admin/projects/nope/dora")).status).toBe(404);
  });

  it("status: activity per day, resources, health, stale flags and lifecycle stages", async () => {
    const res = await t.rest("GET", `${P}/status`);
    expect(res.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const events = await t.database.prisma.event.count({ where: { project: "default" } });
    expect(res.body.activityCountByDate).toContainEqual({ date: today, count: events });
    expect(res.body.resources).toEqual({ apiTokens: 1, members: 0, segments: 0 });
    // 3 flags, 1 stale: round(100 - 33.3) = 67.
    expect(res.body.health).toEqual({ current: 67 });
    expect(res.body.technicalDebt).toEqual({ current: 33 });
    expect(res.body.staleFlags).toEqual({ total: 1 });
    const stages = res.body.lifecycleSummary;
    expect(stages.initial.currentFlags + stages.preLive.currentFlags + stages.live.currentFlags).toBe(3);
    expect(stages.archived).toEqual({ currentFlags: 0, last30Days: 0 });
    expect((await t.rest("GET", "/api/admin/projects/nope/status")).status).toBe(404);
  });

  it("health report: the project, its flags, and health with the counts it comes from", async () => {
    const res = await t.rest("GET", `${P}/health-report`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      version: 1,
      name: "Default",
      mode: "open",
      health: 67,
      technicalDebt: 33,
      staleCount: 1,
      potentiallyStaleCount: 0,
      activeCount: 2,
      environments: [{ environment: "development" }, { environment: "production" }],
    });
    expect(res.body.features.map((f: { name: string }) => f.name)).toEqual(["ins-a", "ins-b", "ins-c"]);
    expect((await t.rest("GET", "/api/admin/projects/nope/health-report")).status).toBe(404);
  });

  it("insights: 30-day windows, lead time, flag types, ratings, members", async () => {
    const res = await t.rest("GET", `${P}/insights`);
    expect(res.status).toBe(200);
    expect(res.body.stats).toMatchObject({
      createdCurrentWindow: 3,
      createdPastWindow: 0,
      archivedCurrentWindow: 0,
    });
    expect(res.body.stats.projectActivityCurrentWindow).toBeGreaterThan(3);
    expect(res.body.leadTime).toEqual({
      projectAverage: 3,
      features: [{ name: "ins-a", timeToProduction: 3 }],
    });
    expect(res.body.featureTypeCounts).toEqual([
      { type: "experiment", count: 1 },
      { type: "release", count: 2 },
    ]);
    expect(res.body.technicalDebt).toEqual({
      rating: 33,
      activeCount: 2,
      potentiallyStaleCount: 0,
      staleCount: 1,
    });
    expect(res.body.health.rating).toBe(67);
    expect((await t.rest("GET", "/api/admin/projects/nope/insights")).status).toBe(404);
  });

  it("applications: those that sent metrics for the project's flags, with instances and SDKs", async () => {
    const res = await t.rest("GET", `${P}/applications`);
    expect(res).toMatchObject({
      status: 200,
      body: {
        total: 1,
        applications: [
          {
            name: "shop",
            environments: ["development"],
            instances: ["shop-1"],
            sdks: [{ name: "unleash-client-node", versions: ["5.0.0"] }],
          },
        ],
      },
    });
    expect((await t.rest("GET", `${P}/applications?query=nomatch`)).body).toEqual({
      total: 0,
      applications: [],
    });
    expect((await t.rest("GET", "/api/admin/projects/empty/applications")).body).toEqual({
      total: 0,
      applications: [],
    });
    expect((await t.rest("GET", `${P}/applications?limit=abc`)).status).toBe(400);
    expect((await t.rest("GET", "/api/admin/projects/nope/applications")).status).toBe(404);
  });

  it("outdated SDKs: versions below Unleash's minimum, with the applications running them", async () => {
    const res = await t.rest("GET", `${P}/sdks/outdated`);
    expect(res).toMatchObject({
      status: 200,
      body: { sdks: [{ sdkVersion: "unleash-client-node:5.0.0", applications: ["shop"] }] },
    });
    expect((await t.rest("GET", "/api/admin/projects/empty/sdks/outdated")).body).toEqual({ sdks: [] });
    expect((await t.rest("GET", "/api/admin/projects/nope/sdks/outdated")).status).toBe(404);
  });

  it("personal dashboard of a project: events, onboarding, owners, the caller's roles, insights", async () => {
    const res = await t.rest("GET", "/api/admin/personal-dashboard/default", undefined, editor);
    expect(res.status).toBe(200);
    const newest = await t.database.prisma.event.findFirst({
      where: { project: "default" },
      orderBy: { id: "desc" },
    });
    const events = await t.database.prisma.event.count({ where: { project: "default" } });
    expect(res.body.latestEvents).toHaveLength(Math.min(10, events));
    expect(res.body.latestEvents[0]).toMatchObject({ id: Number(newest?.id), summary: newest?.summary });
    expect(res.body.onboardingStatus).toEqual({ status: "onboarded" });
    expect(res.body.owners).toEqual([{ ownerType: "system" }]);
    expect(res.body.roles).toEqual([]);
    expect(res.body.insights).toEqual({
      avgHealthCurrentWindow: null,
      avgHealthPastWindow: null,
      totalFlags: 3,
      activeFlags: 2,
      staleFlags: 1,
      potentiallyStaleFlags: 0,
      health: 67,
      technicalDebt: 33,
    });
    // The editor owns another project (default's members stay as the other tests count them).
    await createProject(t, "owned", { name: "Owned" });
    const owner = await t.database.prisma.role.findUniqueOrThrow({ where: { name: "Owner" } });
    await addProjectMember(t, "owned", editorId, owner.id);
    const member = await t.rest("GET", "/api/admin/personal-dashboard/owned", undefined, editor);
    expect(member.body.owners).toEqual([
      {
        ownerType: "user",
        name: "Ada Editor",
        imageUrl: expect.stringContaining(`/avatars/${editorId}.svg`),
        email: null,
      },
    ]);
    expect(member.body.roles).toEqual([{ id: owner.id, name: "Owner", type: "project" }]);
    expect((await t.rest("GET", "/api/admin/personal-dashboard/empty")).body.onboardingStatus).toEqual({
      status: "onboarding-started",
    });
    expect((await t.rest("GET", "/api/admin/personal-dashboard/nope")).status).toBe(404);
    expect((await t.rest("GET", "/api/admin/personal-dashboard/default", undefined, null)).status).toBe(401);
  });
});
