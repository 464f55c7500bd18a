import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { userWithPat } from "../helpers/builders.ts";
import { login } from "../helpers/session.ts";

/** Unleash's maintenance mode (issue 14): while on, writes are refused with 503; reads work. */
let t: TestApp;
let editor: string;
let viewer: string;
beforeAll(async () => {
  t = await createTestApp();
  editor = (await userWithPat(t, "mm-editor", "Editor")).token;
  viewer = (await userWithPat(t, "mm-viewer", "Viewer")).token;
});
afterAll(() => t.close());

describe("maintenance mode", () => {
  it("is off at first; admins only", async () => {
    expect(await t.rest("GET", "/api/admin/maintenance")).toMatchObject({
      status: 200,
      body: { enabled: false },
    });
    expect((await t.rest("GET", "/api/admin/maintenance", undefined, editor)).status).toBe(403);
    expect((await t.rest("POST", "/api/admin/maintenance", { enabled: true }, editor)).status).toBe(403);
    expect((await t.rest("POST", "/api/admin/maintenance", { enabled: "yes" })).status).toBe(400);
    expect((await t.rest("POST", "/api/admin/maintenance", {})).status).toBe(400);
  });

  it("refuses REST writes and GraphQL mutations while on; reads, login and turning it off still work", async () => {
    const on = await t.rest("POST", "/api/admin/maintenance", { enabled: true });
    expect(on).toMatchObject({ status: 204, body: undefined });
    expect((await t.rest("GET", "/api/admin/maintenance")).body).toEqual({ enabled: true });
    expect((await t.rest("GET", "/api/admin/ui-config")).body.maintenanceMode).toBe(true);

    const write = await t.rest(
      "POST",
      "/api/admin/projects/default/features",
      { name: "during-maintenance" },
      editor,
    );
    expect(write.status).toBe(503);
    expect(write.body).toMatchObject({ name: "MaintenanceModeError" });
    const mutation = await t.gql(
      `mutation { createFeature(project: "default", input: { name: "gql-maint" }) { name } }`,
    );
    expect(mutation.errors?.[0]?.extensions?.code).toBe("MAINTENANCE");
    expect(
      await t.database.prisma.feature.count({ where: { name: { in: ["during-maintenance", "gql-maint"] } } }),
    ).toBe(0);
    // authorisation comes first: a caller without the permission learns nothing more
    expect(
      (await t.rest("POST", "/api/admin/strategies", { name: "x", parameters: [] }, viewer)).status,
    ).toBe(403);

    expect((await t.rest("GET", "/api/admin/projects/default/features")).status).toBe(200);
    expect((await login(t, "mm-editor")).status).toBe(200);

    expect((await t.rest("POST", "/api/admin/maintenance", { enabled: false })).status).toBe(204);
    expect(
      (await t.rest("POST", "/api/admin/projects/default/features", { name: "after-maintenance" }, editor))
        .status,
    ).toBe(201);
    const recorded = await t.database.prisma.event.findMany({
      where: { type: { in: ["setting-created", "setting-updated"] } },
      orderBy: { id: "asc" },
    });
    expect(recorded.map((e) => [e.type, (e.data as { enabled: boolean }).enabled])).toEqual([
      ["setting-created", true],
      ["setting-updated", false],
    ]);
  });
});
