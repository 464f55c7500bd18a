import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, withClock } from "../helpers/app.ts";
import { userWithPat } from "../helpers/builders.ts";
import { login, PASSWORD } from "../helpers/session.ts";

/**
 * Unleash's user paths (issue 14): own profile, roles and password; the admin's user search,
 * counts, password setting and inactive-user clean-up. Answers are checked against each
 * route's response schema (checkRestResponses).
 */
let t: TestApp;
let viewer: Awaited<ReturnType<typeof userWithPat>>;
beforeAll(async () => {
  t = await createTestApp();
  viewer = await userWithPat(t, "vic-viewer", "Viewer");
  const added = await t.gql(
    `mutation($u: Int!) { addProjectMember(project: "default", userId: $u, roleId: 5) }`,
    {
      u: viewer.id,
    },
  );
  expect(added.errors).toBeUndefined();
});
afterAll(() => t.close());

describe("own account", () => {
  it("profile: root role and projects; no secrets", async () => {
    const res = await t.rest("GET", "/api/admin/user/profile", undefined, viewer.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      rootRole: { name: "Viewer", type: "root", project: null },
      projects: ["default"],
      groups: [],
      features: [],
      subscriptions: [],
      canChangePassword: true,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/scrypt|passwordHash/i);
    const admin = await t.rest("GET", "/api/admin/user/profile");
    expect(admin.body).toMatchObject({ rootRole: { name: "Admin" }, projects: [], canChangePassword: false });
    expect((await t.rest("GET", "/api/admin/user/profile", undefined, null)).status).toBe(401);
  });

  it("roles: root role plus project roles, narrowed by projectId", async () => {
    const all = await t.rest("GET", "/api/admin/user/roles", undefined, viewer.token);
    expect(all.status).toBe(200);
    expect(all.body.version).toBe(1);
    expect(all.body.roles.map((r: { name: string; project: string | null }) => [r.name, r.project])).toEqual([
      ["Viewer", null],
      ["Member", "default"],
    ]);
    const other = await t.rest("GET", "/api/admin/user/roles?projectId=elsewhere", undefined, viewer.token);
    expect(other.body.roles.map((r: { name: string }) => r.name)).toEqual(["Viewer"]);
  });

  it("change-password: confirmation and old password checked; the new one logs in, the old no more", async () => {
    const path = "/api/admin/user/change-password";
    const next = "N3w-Passw0rd-vic!";
    const mismatch = await t.rest(
      "POST",
      path,
      { password: next, confirmPassword: "other", oldPassword: PASSWORD },
      viewer.token,
    );
    expect(mismatch.status).toBe(400);
    const wrongOld = await t.rest(
      "POST",
      path,
      { password: next, confirmPassword: next, oldPassword: "nope" },
      viewer.token,
    );
    expect(wrongOld.status).toBe(401);
    const weak = await t.rest(
      "POST",
      path,
      { password: "weak", confirmPassword: "weak", oldPassword: PASSWORD },
      viewer.token,
    );
    expect(weak.status).toBe(400);
    expect((await t.rest("POST", path, {}, viewer.token)).status).toBe(400);
    // an API token has no password of its own
    expect(
      (await t.rest("POST", path, { password: next, confirmPassword: next, oldPassword: "x" })).status,
    ).toBe(400);

    // Unleash's passwordSchema refuses other fields (test/rest/body-fields.test.ts)
    const extra = await t.rest(
      "POST",
      path,
      { password: next, confirmPassword: next, oldPassword: PASSWORD, extra: 1 },
      viewer.token,
    );
    expect(extra.status).toBe(400);
    const ok = await t.rest(
      "POST",
      path,
      { password: next, confirmPassword: next, oldPassword: PASSWORD },
      viewer.token,
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toBeUndefined();
    expect((await login(t, "vic-viewer", PASSWORD)).status).toBe(401);
    expect((await login(t, "vic-viewer", next)).status).toBe(200);
    // reused: refused
    const again = await t.rest(
      "POST",
      path,
      { password: PASSWORD, confirmPassword: PASSWORD, oldPassword: next },
      viewer.token,
    );
    expect(again.status).toBe(400);
  });

  it("validate-password: 200 empty when strong, 400 with the broken rules", async () => {
    const strong = await t.rest(
      "POST",
      "/api/admin/user-admin/validate-password",
      { password: "Str0ng-Enough!" },
      viewer.token,
    );
    expect(strong).toMatchObject({ status: 200, body: undefined });
    const weak = await t.rest(
      "POST",
      "/api/admin/user-admin/validate-password",
      { password: "short" },
      viewer.token,
    );
    expect(weak.status).toBe(400);
    expect(weak.body.details.length).toBeGreaterThan(1);
    expect((await t.rest("POST", "/api/admin/user-admin/validate-password", {})).status).toBe(400);
  });
});

describe("user administration", () => {
  it("search: name, username or email, 2 characters or more, any caller", async () => {
    const res = await t.rest("GET", "/api/admin/user-admin/search?q=VIC", undefined, viewer.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      expect.objectContaining({
        id: viewer.id,
        username: "vic-viewer",
        email: "vic-viewer@example.com",
        rootRole: 3,
      }),
    ]);
    expect((await t.rest("GET", "/api/admin/user-admin/search?q=v")).body).toEqual([]);
    expect((await t.rest("GET", "/api/admin/user-admin/search")).body).toEqual([]);
  });

  it("access: users any caller may see, no groups", async () => {
    const res = await t.rest("GET", "/api/admin/user-admin/access", undefined, viewer.token);
    expect(res.status).toBe(200);
    expect(res.body.groups).toEqual([]);
    expect(res.body.users.map((u: { username: string }) => u.username)).toContain("vic-viewer");
  });

  it("admin-count: admins with and without password; admins only", async () => {
    const res = await t.rest("GET", "/api/admin/user-admin/admin-count");
    expect(res).toMatchObject({ status: 200, body: { password: 1, noPassword: 0, service: 0 } });
    expect((await t.rest("GET", "/api/admin/user-admin/admin-count", undefined, viewer.token)).status).toBe(
      403,
    );
  });

  it("an admin sets a user's password: strength checked, 404 unknown user, 403 for others", async () => {
    const path = `/api/admin/user-admin/${viewer.id}/change-password`;
    expect((await t.rest("POST", path, { password: "weak" })).status).toBe(400);
    expect(
      (await t.rest("POST", "/api/admin/user-admin/987654/change-password", { password: "Adm1n-Set-Pass!" }))
        .status,
    ).toBe(404);
    expect(
      (await t.rest("POST", "/api/admin/user-admin/abc/change-password", { password: "Adm1n-Set-Pass!" }))
        .status,
    ).toBe(400);
    expect((await t.rest("POST", path, { password: "Adm1n-Set-Pass!" }, viewer.token)).status).toBe(403);
    const ok = await t.rest("POST", path, { password: "Adm1n-Set-Pass!" });
    expect(ok).toMatchObject({ status: 200, body: undefined });
    expect((await login(t, "vic-viewer", "Adm1n-Set-Pass!")).status).toBe(200);
  });

  it("inactive users: listed after 180 days unseen; deleting skips active ones and records user-deleted", async () => {
    const old = await withClock(t, new Date(Date.now() - 200 * 86_400_000), () =>
      t.rest("POST", "/api/admin/user-admin", { username: "old-timer", email: "old@example.com" }),
    );
    expect(old.status).toBe(201);
    const fresh = await t.rest("POST", "/api/admin/user-admin", { username: "fresh-face" });

    const list = await t.rest("GET", "/api/admin/user-admin/inactive");
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      version: 1,
      inactiveUsers: [
        expect.objectContaining({ id: old.body.id, username: "old-timer", seenAt: null, patSeenAt: null }),
      ],
    });
    expect((await t.rest("GET", "/api/admin/user-admin/inactive", undefined, viewer.token)).status).toBe(403);
    expect((await t.rest("POST", "/api/admin/user-admin/inactive/delete", { ids: "x" })).status).toBe(400);
    expect(
      (await t.rest("POST", "/api/admin/user-admin/inactive/delete", { ids: [old.body.id] }, viewer.token))
        .status,
    ).toBe(403);

    const del = await t.rest("POST", "/api/admin/user-admin/inactive/delete", {
      ids: [old.body.id, fresh.body.id, 99999],
    });
    expect(del).toMatchObject({ status: 200, body: undefined });
    expect((await t.rest("GET", `/api/admin/user-admin/${old.body.id}`)).status).toBe(404);
    expect((await t.rest("GET", `/api/admin/user-admin/${fresh.body.id}`)).status).toBe(200);
    const events = await t.database.prisma.event.findMany({ where: { type: "user-deleted" } });
    expect(events).toHaveLength(1);
    expect((await t.rest("GET", "/api/admin/user-admin/inactive")).body.inactiveUsers).toEqual([]);
  });
});
