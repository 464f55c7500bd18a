import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { userWithPat } from "../helpers/builders.ts";

/**
 * Unleash's instance statistics (issue 14): counts of what Vexil stores, for admins, as JSON
 * (checked against the route's response schema) and as CSV.
 */
let t: TestApp;
let editor: Awaited<ReturnType<typeof userWithPat>>;
const PATH = "/api/admin/instance-admin/statistics";

beforeAll(async () => {
  t = await createTestApp();
  editor = await userWithPat(t, "stats-editor", "Editor");
  expect((await t.rest("POST", "/api/admin/projects/default/features", { name: "stats-a" })).status).toBe(
    201,
  );
  expect((await t.rest("POST", "/api/admin/projects/default/features", { name: "stats-b" })).status).toBe(
    201,
  );
  const base = "/api/admin/projects/default/features/stats-a/environments/production";
  const strategy = {
    name: "flexibleRollout",
    parameters: { rollout: "50", stickiness: "default", groupId: "stats-a" },
    constraints: [
      { contextName: "userId", operator: "IN", values: ["a", "b", "c"] },
      { contextName: "appName", operator: "IN", values: ["x"] },
    ],
  };
  expect((await t.rest("POST", `${base}/strategies`, strategy)).status).toBe(200);
  expect((await t.rest("POST", `${base}/strategies`, { name: "default" })).status).toBe(200);
  expect((await t.rest("POST", `${base}/on`)).status).toBe(200);
  const token = await t.rest("POST", "/api/admin/api-tokens", {
    tokenName: "stats-sdk",
    type: "client",
    environment: "development",
    projects: ["*"],
  });
  expect(token.status).toBe(201);
});
afterAll(() => t.close());

describe("GET /api/admin/instance-admin/statistics", () => {
  it("counts what Vexil stores", async () => {
    const res = await t.rest("GET", PATH);
    expect(res.status).toBe(200);
    const db = t.database.prisma;
    expect(res.body).toMatchObject({
      versionEnterprise: "",
      users: await db.user.count({ where: { deletedAt: null, isService: false } }),
      featureToggles: 2,
      projects: await db.project.count(),
      environments: await db.environment.count(),
      contextFields: await db.contextField.count(),
      segments: 0,
      strategies: await db.strategyDefinition.count(),
      roles: await db.role.count(),
      groups: 0,
      apiTokens: { admin: 1, client: 1, frontend: 0 },
      maxEnvironmentStrategies: 2,
      maxConstraints: 2,
      maxConstraintValues: 3,
      featureExports: 0,
      featureImports: 0,
      releaseTemplates: 0,
      releasePlans: 0,
      edgeInstanceUsage: {},
      SAMLenabled: false,
      OIDCenabled: false,
      clientApps: [
        { range: "allTime", count: 0 },
        { range: "30d", count: 0 },
        { range: "7d", count: 0 },
      ],
    });
    expect(res.body.users).toBeGreaterThanOrEqual(2);
    // the editor logged in just now; the admin user never did
    expect(res.body.activeUsers).toEqual({ last7: 1, last30: 1, last60: 1, last90: 1 });
    expect(res.body.licensedUsers).toBe(1);
    // strategies added and the flag turned on in production
    expect(res.body.productionChanges.last30).toBeGreaterThanOrEqual(3);
    expect(res.body.instanceId).not.toBe("");
    expect(res.body.sum).toMatch(/^[0-9a-f]{64}$/);
  });

  it("archived flags are not counted", async () => {
    // A flag of its own, archived again: the other tests count the flags of beforeAll.
    const created = await t.rest("POST", "/api/admin/projects/default/features", { name: "stats-archived" });
    expect(created.status).toBe(201);
    const before = (await t.rest("GET", PATH)).body.featureToggles;
    expect((await t.rest("DELETE", "/api/admin/projects/default/features/stats-archived")).status).toBe(202);
    expect((await t.rest("GET", PATH)).body.featureToggles).toBe(before - 1);
  });

  it("CSV: a header row and the same figures", async () => {
    const res = await t.app.fetch(`http://vexil.test${PATH}/csv`, {
      headers: { authorization: "*:*.test-admin-secret-0123456789abcdef" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    const [header, values] = (await res.text()).trimEnd().split("\n");
    expect(header?.startsWith('"instanceId","timestamp","versionOSS"')).toBe(true);
    expect(header).toContain('"featureToggles"');
    expect(values).toContain('"{""admin"":1,""client"":1,""frontend"":0}"');
  });

  it("admins only: 401 without a credential, 403 for an editor", async () => {
    for (const path of [PATH, `${PATH}/csv`]) {
      expect((await t.rest("GET", path, undefined, null)).status).toBe(401);
      expect((await t.rest("GET", path, undefined, editor.token)).status).toBe(403);
    }
  });
});
