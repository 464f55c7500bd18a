import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag } from "../helpers/builders.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await createFlag(t, "audited");
});
afterAll(() => t.close());

const errorShape = {
  id: expect.stringMatching(/^[0-9a-f-]{36}$/),
  name: expect.any(String),
  message: expect.any(String),
};

describe("REST layer", () => {
  it("GET /api/admin/events/:featureName lists the flag's events (spec 4.8)", async () => {
    const res = await t.rest("GET", "/api/admin/events/audited");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 1, toggleName: "audited", totalEvents: 1 });
    expect(res.body.events).toEqual([
      expect.objectContaining({
        id: expect.any(Number),
        type: "feature-created",
        featureName: "audited",
        project: "default",
        environment: null,
        createdBy: "admin-token",
        createdByUserId: -42,
        tags: [],
        label: "Flag created",
        summary: expect.stringContaining("**admin-token** created"),
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      }),
    ]);
  });

  it("answers an unknown flag with 200 and an empty list", async () => {
    const res = await t.rest("GET", "/api/admin/events/no-such-flag");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: 1, toggleName: "no-such-flag", events: [], totalEvents: 0 });
  });

  it("answers 401 AuthenticationRequired without or with a bad token", async () => {
    for (const token of [null, "nonsense", "*:*.not-a-real-secret"]) {
      const res = await t.rest("GET", "/api/admin/events/audited", undefined, token);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ ...errorShape, name: "AuthenticationRequired" });
    }
  });

  it("answers an unknown /api/admin path with 404 in the error shape", async () => {
    for (const path of ["/api/admin/nope", "/api/admin", "/api/admin/events/nothing/here"]) {
      const res = await t.rest("GET", path);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ ...errorShape, name: "NotFoundError" });
    }
  });

  it("answers a known path with the wrong method 405 with Allow", async () => {
    const res = await t.rest("DELETE", "/api/admin/events/audited");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
    expect(res.body).toMatchObject({ ...errorShape, name: "MethodNotAllowed" });
  });

  it("serves a valid OpenAPI 3.1 document of every route, and a page for people", async () => {
    const res = await t.app.fetch("http://vexil.test/docs/openapi.json");
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.paths["/api/admin/events/{featureName}"].get.responses["200"]).toBeDefined();
    const result = await new Validator().validate(doc);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    const page = await t.app.fetch("http://vexil.test/docs");
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain('url: "/docs/openapi.json"');
  });

  it("serves /health and /ready without a token", async () => {
    const health = await t.app.fetch("http://vexil.test/health");
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ health: "GOOD" });
    const ready = await t.app.fetch("http://vexil.test/ready");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ health: "GOOD" });
    const doc = await (await t.app.fetch("http://vexil.test/docs/openapi.json")).json();
    expect(doc.paths["/health"].get).toMatchObject({ tags: ["Operational"], responses: { "200": {} } });
    expect(doc.paths["/ready"].get.responses).toHaveProperty("503");
    // Only /health itself: a path that ends with it is an ordinary route.
    expect((await t.rest("POST", "/api/admin/projects/default/features", { name: "health" })).status).toBe(
      201,
    );
    const flag = await t.rest("GET", "/api/admin/projects/default/features/health");
    expect(flag).toMatchObject({ status: 200, body: { name: "health" } });
  });
});
