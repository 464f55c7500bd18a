import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag, enableFlag, userWithPat } from "../helpers/builders.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("GET /api/admin/projects/:p/environments/:env/snapshot", () => {
  it("answers each flag of the environment as it was at the instant", async () => {
    await createFlag(t, "snapshot-a", { strategies: [{ name: "default", environment: "production" }] });
    await enableFlag(t, "snapshot-a", "production");
    const at = new Date(Date.now() + 5).toISOString();
    await new Promise((r) => setTimeout(r, 10));
    const res = await t.rest("GET", `/api/admin/projects/default/environments/production/snapshot?at=${at}`);
    expect(res.status).toBe(200);
    expect(res.body.features).toContainEqual({ name: "snapshot-a", exact: true, enabled: true });
  });

  it("is a 400 naming `at` without it, and a 401 without a credential", async () => {
    const missing = await t.rest("GET", "/api/admin/projects/default/environments/production/snapshot");
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain("at");
    const viewer = (await userWithPat(t, "snapshot-viewer", "Viewer")).token;
    const asViewer = await t.rest(
      "GET",
      "/api/admin/projects/default/environments/production/snapshot?at=2026-01-01T00:00:00Z",
      undefined,
      viewer,
    );
    expect(asViewer.status).toBe(200);
    expect(
      (await t.app.fetch("http://vexil.test/api/admin/projects/default/environments/production/snapshot"))
        .status,
    ).toBe(401);
  });
});
