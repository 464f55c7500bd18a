import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { userWithPat } from "../helpers/builders.ts";

/**
 * The permission is checked before the body (D-12), as Unleash 8.2 answers: a caller who may not
 * do this anywhere gets 403 whatever the body, and learns nothing from validation messages. Routes
 * whose permission depends on the arguments (a project, an environment) are the ones covered here;
 * fixed permissions were already checked first.
 */
let t: TestApp;
let viewer: string;
let editor: string;
beforeAll(async () => {
  t = await createTestApp();
  viewer = (await userWithPat(t, "first-viewer", "Viewer")).token;
  editor = (await userWithPat(t, "first-editor", "Editor")).token;
  expect((await t.rest("POST", "/api/admin/projects/default/features", { name: "first-flag" })).status).toBe(
    201,
  );
});
afterAll(() => t.close());

const MALFORMED = [
  { method: "POST", path: "/api/admin/api-tokens", body: {}, permission: "CREATE_CLIENT_API_TOKEN" },
  { method: "POST", path: "/api/admin/projects/default/features", body: {}, permission: "CREATE_FEATURE" },
  { method: "POST", path: "/api/admin/segments", body: { constraints: "x" }, permission: "CREATE_SEGMENT" },
  {
    method: "POST",
    path: "/api/admin/projects/default/features/first-flag/environments/development/strategies",
    body: { name: 42 },
    permission: "CREATE_FEATURE_STRATEGY",
  },
  {
    method: "PATCH",
    path: "/api/admin/projects/default/features/first-flag",
    body: { not: "a list" },
    permission: "UPDATE_FEATURE",
  },
] as const;

describe("permission before validation", () => {
  it.each(MALFORMED)("a Viewer's malformed $method $path is 403, naming $permission", async (c) => {
    const res = await t.rest(c.method, c.path, c.body, viewer);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ name: "NoAccessError", permissions: [c.permission] });
    expect(res.body.message).toContain(`"${c.permission}" permission`);
  });

  it.each(MALFORMED)(
    "an Editor (who holds it) still learns what is wrong: $method $path is 400",
    async (c) => {
      const res = await t.rest(c.method, c.path, c.body, editor);
      expect(res.status).toBe(400);
      expect(res.body.name).toBe("ValidationError");
    },
  );
});
