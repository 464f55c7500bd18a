import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { userWithPat } from "../helpers/builders.ts";

/**
 * Unleash's API tokens by name and the expiry update (issue 14): GET /api/admin/api-tokens/:name
 * and PUT /api/admin/api-tokens/:token (the secret). Answers are checked against each route's schema.
 */
let t: TestApp;
let viewer: string;
let secret: string;
beforeAll(async () => {
  t = await createTestApp();
  viewer = (await userWithPat(t, "tokens-viewer", "Viewer")).token;
  for (const environment of ["development", "production"]) {
    const created = await t.rest("POST", "/api/admin/api-tokens", {
      tokenName: "checkout-service",
      type: "client",
      environment,
      projects: ["*"],
    });
    expect(created.status).toBe(201);
    secret = created.body.secret;
  }
  expect(
    (
      await t.rest("POST", "/api/admin/api-tokens", {
        tokenName: "web",
        type: "frontend",
        environment: "development",
      })
    ).status,
  ).toBe(201);
});
afterAll(() => t.close());

describe("API tokens by name", () => {
  it("lists every token of that name, without secrets; an unknown name is an empty list", async () => {
    const res = await t.rest("GET", "/api/admin/api-tokens/checkout-service");
    expect(res.status).toBe(200);
    expect(res.body.tokens.map((tk: { environment: string }) => tk.environment).sort()).toEqual([
      "development",
      "production",
    ]);
    expect(res.body.tokens[0]).toMatchObject({ tokenName: "checkout-service", type: "client", project: "*" });
    expect(res.body.tokens[0]).not.toHaveProperty("secret");
    expect((await t.rest("GET", "/api/admin/api-tokens/nobody")).body).toEqual({ tokens: [] });
    expect((await t.rest("GET", "/api/admin/api-tokens/checkout-service", undefined, viewer)).status).toBe(
      403,
    );
  });
});

describe("PUT /api/admin/api-tokens/:token sets the expiry", () => {
  it("200 without a body, api-token-updated with data and preData, the list shows it", async () => {
    const expiresAt = "2099-09-04T11:26:24+02:00";
    expect(await t.rest("PUT", `/api/admin/api-tokens/${secret}`, { expiresAt })).toMatchObject({
      status: 200,
      body: undefined,
    });
    const listed = (await t.rest("GET", "/api/admin/api-tokens/checkout-service")).body.tokens;
    expect(listed.find((tk: { environment: string }) => tk.environment === "production")).toMatchObject({
      expiresAt: "2099-09-04T09:26:24.000Z",
    });
    const [event] = await t.database.prisma.event.findMany({ where: { type: "api-token-updated" } });
    expect(event).toMatchObject({
      environment: "production",
      data: { tokenName: "checkout-service", expiresAt: "2099-09-04T09:26:24.000Z" },
      preData: { tokenName: "checkout-service", expiresAt: null },
    });
    expect(JSON.stringify([event?.data, event?.preData])).not.toContain(secret);
  });

  it("an instant in the past expires the token at once", async () => {
    expect((await t.rest("GET", "/api/client/features", undefined, secret)).status).toBe(200);
    const past = new Date(Date.now() - 60_000).toISOString();
    expect((await t.rest("PUT", `/api/admin/api-tokens/${secret}`, { expiresAt: past })).status).toBe(200);
    expect((await t.rest("GET", "/api/client/features", undefined, secret)).status).toBe(401);
  });

  it("an unknown secret is 200 and changes nothing; a bad body is 400; a viewer is 403", async () => {
    const before = await t.database.prisma.event.count({ where: { type: "api-token-updated" } });
    const later = { expiresAt: "2099-01-01T00:00:00Z" };
    expect((await t.rest("PUT", "/api/admin/api-tokens/*:development.nope", later)).status).toBe(200);
    expect(await t.database.prisma.event.count({ where: { type: "api-token-updated" } })).toBe(before);
    expect((await t.rest("PUT", `/api/admin/api-tokens/${secret}`, { expiresAt: "soon" })).status).toBe(400);
    expect((await t.rest("PUT", `/api/admin/api-tokens/${secret}`, {})).status).toBe(400);
    expect((await t.rest("PUT", `/api/admin/api-tokens/${secret}`, later, viewer)).status).toBe(403);
  });
});
