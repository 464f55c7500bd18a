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

  it("a reset link is for an email, as Unleash 8.2 looks users up: a username is a 404 (D-20)", async () => {
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
    expect(byName.status).toBe(404);
    const byEmail = await t.rest("POST", "/api/admin/user-admin/reset-password", {
      id: "reset.me@example.com",
    });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.resetPasswordUrl).toMatch(/token=/);
  });

  it("a script's user creation: sendEmail is taken (and ignored), the root role may be its id", async () => {
    // Unleash's createUserSchema refuses other fields: so does Vexil (test/rest/body-fields.test.ts).
    const refused = await t.rest("POST", "/api/admin/user-admin", {
      username: "scripted",
      rootRole: 2,
      somethingElse: { nested: true },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('"somethingElse"');
    const res = await t.rest("POST", "/api/admin/user-admin", {
      username: "scripted",
      email: "scripted@example.com",
      rootRole: 2,
      sendEmail: false,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ username: "scripted", rootRole: "Editor" });
    const bad = await t.rest("POST", "/api/admin/user-admin", { username: "x2", rootRole: 99 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("rootRole");
  });

  it("validation errors name the REST field, never a GraphQL variable", async () => {
    const res = await t.rest("POST", "/api/admin/projects/default/features", { name: 5 });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/"name"/);
    expect(res.body.message).not.toMatch(/Variable|\$input|GraphQL/);
  });

  it("archive validation refuses features that is not a list (400)", async () => {
    for (const features of ["compat-a", 5, { a: 1 }]) {
      const res = await t.rest("POST", "/api/admin/projects/default/archive/validate", { features });
      expect(res.status, JSON.stringify(features)).toBe(400);
      expect(res.body).toMatchObject({
        name: "ValidationError",
        message: expect.stringContaining("features"),
      });
    }
    const ok = await t.rest("POST", "/api/admin/projects/default/archive/validate", {
      features: ["compat-a"],
    });
    expect(ok.status).toBe(200);
  });

  it("a body sent as another media type than JSON is 415, and nothing is applied", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
      const res = await t.app.fetch("http://vexil.test/api/admin/projects/default/features", {
        method: "POST",
        headers: { authorization: "*:*.test-admin-secret-0123456789abcdef", "content-type": type },
        body: JSON.stringify({ name: "sent-as-text" }),
      });
      expect(res.status).toBe(415);
      expect(await res.json()).toMatchObject({ name: "ContentTypeError" });
    }
    expect((await t.rest("GET", "/api/admin/projects/default/features/sent-as-text")).status).toBe(404);
    const patch = await t.app.fetch("http://vexil.test/api/admin/projects/default/features/compat-a", {
      method: "PATCH",
      headers: {
        authorization: "*:*.test-admin-secret-0123456789abcdef",
        "content-type": "application/json-patch+json",
      },
      body: JSON.stringify([{ op: "replace", path: "/description", value: "patched" }]),
    });
    expect(patch.status).toBe(200);
  });

  it("reads back a flag's environment, its strategies and one strategy; lists the flag types", async () => {
    const strategy = await t.rest(
      "POST",
      "/api/admin/projects/default/features/compat-a/environments/development/strategies",
      { name: "flexibleRollout", parameters: { rollout: "30", stickiness: "default", groupId: "compat-a" } },
    );
    expect(strategy.status).toBe(200);
    const env = await t.rest("GET", "/api/admin/projects/default/features/compat-a/environments/development");
    expect(env.status).toBe(200);
    expect(env.body).toMatchObject({
      name: "development",
      environment: "development",
      featureName: "compat-a",
      enabled: false,
    });
    expect(env.body.strategies).toEqual([
      expect.objectContaining({ id: strategy.body.id, name: "flexibleRollout" }),
    ]);
    const list = await t.rest(
      "GET",
      "/api/admin/projects/default/features/compat-a/environments/development/strategies",
    );
    expect(list.body).toEqual([expect.objectContaining({ id: strategy.body.id })]);
    const one = await t.rest(
      "GET",
      `/api/admin/projects/default/features/compat-a/environments/development/strategies/${strategy.body.id}`,
    );
    expect(one.body).toMatchObject({ id: strategy.body.id, parameters: { rollout: "30" } });
    const missing = await t.rest(
      "GET",
      "/api/admin/projects/default/features/compat-a/environments/development/strategies/nope",
    );
    expect(missing.status).toBe(404);
    expect(
      (await t.rest("GET", "/api/admin/projects/default/features/compat-a/environments/nope")).status,
    ).toBe(404);
    expect(
      (await t.rest("GET", "/api/admin/projects/default/features/nope/environments/development")).status,
    ).toBe(404);
    const types = await t.rest("GET", "/api/admin/feature-types");
    expect(types.status).toBe(200);
    expect(types.body.version).toBe(1);
    expect(types.body.types).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: "release", lifetimeDays: 40 }),
        expect.objectContaining({ id: "kill-switch", lifetimeDays: null }),
      ]),
    );
  });

  it("flag search favorite=IS:true is the caller's favourites, IS:false the others", async () => {
    await t.rest("POST", "/api/admin/projects/default/features", { name: "compat-fav" });
    expect((await t.rest("POST", "/api/admin/projects/default/features/compat-fav/favorites")).status).toBe(
      200,
    );
    const favourites = await t.rest("GET", "/api/admin/search/features?favorite=IS:true");
    expect(favourites.body.features.map((f: { name: string }) => f.name)).toEqual(["compat-fav"]);
    expect(favourites.body.total).toBe(1);
    const others = await t.rest("GET", "/api/admin/search/features?favorite=IS:false");
    expect(others.body.features.map((f: { name: string }) => f.name)).not.toContain("compat-fav");
    expect(others.body.total).toBeGreaterThan(0);
  });

  it("every user has an avatar served by Vexil; ui-config's feedbackUriPath is a string", async () => {
    const flag = await t.rest("GET", "/api/admin/projects/default/features/compat-a");
    const imageUrl = flag.body.createdBy.imageUrl as string;
    expect(imageUrl).toBe("http://localhost:4242/avatars/-42.svg");
    const avatar = await t.app.fetch(`http://vexil.test${new URL(imageUrl).pathname}`);
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get("content-type")).toBe("image/svg+xml");
    const svg = await avatar.text();
    expect(svg).toMatch(/^<svg/);
    const again = await (await t.app.fetch("http://vexil.test/avatars/-42.svg")).text();
    expect(again).toBe(svg);
    expect(await (await t.app.fetch("http://vexil.test/avatars/7.svg")).text()).not.toBe(svg);
    const ui = await t.rest("GET", "/api/admin/ui-config");
    expect(typeof ui.body.feedbackUriPath).toBe("string");
  });
});
