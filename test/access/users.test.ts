import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { eventsOf, userWithPat } from "../helpers/builders.ts";
import { login, PASSWORD } from "../helpers/session.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("users", () => {
  it("creates, updates and deletes a user, recording user-* events without the hash", async () => {
    const created = await t.rest("POST", "/api/admin/user-admin", {
      email: "Sam@Example.com",
      name: "Sam",
      rootRole: "Editor",
      password: PASSWORD,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      email: "sam@example.com",
      name: "Sam",
      rootRole: "Editor",
      isActive: true,
    });
    expect(JSON.stringify(created.body)).not.toMatch(/scrypt|password/i);
    const id = created.body.id;

    const updated = await t.rest("PUT", `/api/admin/user-admin/${id}`, {
      name: "Samantha",
      rootRole: "Viewer",
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: "Samantha", rootRole: "Viewer" });
    const same = await t.rest("PUT", `/api/admin/user-admin/${id}`, { name: "Samantha" });
    expect(same.status).toBe(200);

    expect((await t.rest("DELETE", `/api/admin/user-admin/${id}`)).status).toBe(200);
    expect((await t.rest("GET", `/api/admin/user-admin/${id}`)).status).toBe(404);

    const nodes = (await eventsOf(t, ["user-created", "user-updated", "user-deleted"])).filter(
      (e) => (e.data ?? e.preData)?.id === id,
    );
    expect(nodes.map((n) => n.type)).toEqual(["user-created", "user-updated", "user-deleted"]);
    expect(nodes[1]).toMatchObject({
      data: { name: "Samantha", rootRole: "Viewer" },
      preData: { name: "Sam", rootRole: "Editor" },
    });
    expect(JSON.stringify(nodes)).not.toMatch(/scrypt|passwordHash/);
  });

  it("rejects a taken email (409), a bad email (400) and an unknown root role (400)", async () => {
    await t.rest("POST", "/api/admin/user-admin", { email: "dup@example.com" });
    expect((await t.rest("POST", "/api/admin/user-admin", { email: "dup@example.com" })).status).toBe(409);
    const bad = await t.rest("POST", "/api/admin/user-admin", { email: "not-an-email" });
    expect(bad.status).toBe(400);
    expect(bad.body.name).toBe("ValidationError");
    expect(
      (await t.rest("POST", "/api/admin/user-admin", { username: "x1", rootRole: "Owner" })).status,
    ).toBe(400);
  });

  it("refuses a weak initial password with the rules broken", async () => {
    const res = await t.rest("POST", "/api/admin/user-admin", { username: "weak", password: "short" });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { message: string }) => d.message)).toContain(
      "The password must be at least 10 characters long.",
    );
  });

  it("lists users with the root roles, to admins only", async () => {
    const res = await t.rest("GET", "/api/admin/user-admin");
    expect(res.status).toBe(200);
    expect(res.body.rootRoles.map((r: { name: string }) => r.name)).toEqual(["Admin", "Editor", "Viewer"]);
    expect(res.body.users.map((u: { username: string }) => u.username)).toContain("admin");
    const viewer = await userWithPat(t, "lister", "Viewer");
    const denied = await t.rest("GET", "/api/admin/user-admin", undefined, viewer.token);
    expect(denied.status).toBe(403);
    expect(denied.body.name).toBe("NoAccessError");
    expect(denied.body.message).toContain('"ADMIN" permission');
  });

  it("deleting a user ends their sessions and tokens", async () => {
    const u = await userWithPat(t, "leaver", "Editor");
    expect((await t.rest("GET", "/api/admin/user", undefined, u.token)).status).toBe(200);
    await t.rest("DELETE", `/api/admin/user-admin/${u.id}`);
    expect((await t.rest("GET", "/api/admin/user", undefined, u.token)).status).toBe(401);
    expect((await login(t, "leaver")).status).toBe(401);
  });
});
