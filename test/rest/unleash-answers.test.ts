import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";

/** Answers an Unleash 8 script relies on (issue: scripts run unchanged). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  for (const name of ["compat-a", "compat-b"]) {
    expect((await t.rest("POST", "/api/admin/projects/default/features", { name })).status).toBe(201);
  }
});
afterAll(() => t.close());

describe("Unleash's answers", () => {
  it("the built-in tag type `simple` exists and tags a flag", async () => {
    const types = await t.rest("GET", "/api/admin/tag-types");
    expect(types.body.tagTypes.map((tt: { name: string }) => tt.name)).toContain("simple");
    const tagged = await t.rest("POST", "/api/admin/features/compat-a/tags", {
      type: "simple",
      value: "checkout",
    });
    expect(tagged.status).toBe(201);
  });

  it("reading an archived flag through its project is 404", async () => {
    expect((await t.rest("DELETE", "/api/admin/projects/default/features/compat-b")).status).toBe(202);
    const res = await t.rest("GET", "/api/admin/projects/default/features/compat-b");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ name: "NotFoundError" });
    const gql = await t.gql<{ projectFeature: { archived: boolean } }>(
      `{ projectFeature(project: "default", name: "compat-b") { archived } }`,
    );
    expect(gql.data?.projectFeature.archived).toBe(true);
  });

  it("an unknown sortBy falls back to the default order (createdAt)", async () => {
    const fallback = await t.rest("GET", "/api/admin/search/features?sortBy=bogus");
    const byDefault = await t.rest("GET", "/api/admin/search/features");
    expect(fallback.status).toBe(200);
    expect(fallback.body.features.map((f: { name: string }) => f.name)).toEqual(
      byDefault.body.features.map((f: { name: string }) => f.name),
    );
  });

  it("the events of an unknown addon are an empty list", async () => {
    const res = await t.rest("GET", "/api/admin/addons/999/events");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ integrationEvents: [] });
  });

  it("a reset link for a username that is not an email: found by username, else 404", async () => {
    const unknown = await t.rest("POST", "/api/admin/user-admin/reset-password", { id: "nobody" });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ name: "NotFoundError" });
    const created = await t.rest("POST", "/api/admin/user-admin", {
      username: "resetme",
      email: "reset.me@example.com",
      rootRole: "Viewer",
    });
    expect(created.status).toBe(201);
    const byName = await t.rest("POST", "/api/admin/user-admin/reset-password", { id: "resetme" });
    expect(byName.status).toBe(200);
    expect(byName.body.resetPasswordUrl).toMatch(/token=/);
  });
});
