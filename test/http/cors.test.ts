import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createUser, userWithPat } from "../helpers/builders.ts";
import { fromOrigin as fromOriginWithoutCookie } from "../helpers/cors.ts";
import { login } from "../helpers/session.ts";

/*
 * Issue 12 item 5 (and the CORS half of issue 14): credentialed cross-origin answers only for
 * configured origins, per path prefix.
 */
const UI = "https://flags-ui.example";
const SHOP = "https://shop.example";
const EVIL = "https://evil.example";
let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp({
    VEXIL_URL: "https://vexil.example",
    VEXIL_CORS_ORIGINS: `${UI}, https://other-ui.example/`,
    FRONTEND_API_ORIGINS: SHOP,
  });
  await createUser(t, "carol", "Admin");
  const loggedIn = await login(t, "carol");
  expect(loggedIn.status, JSON.stringify(loggedIn.body)).toBe(200);
  cookie = loggedIn.session.cookie;
});
afterAll(() => t.close());

/** A request from a page of `origin` in a browser holding carol's session cookie. */
const fromOrigin = (origin: string, path: string, init: RequestInit = {}) =>
  fromOriginWithoutCookie(t, origin, path, {
    ...init,
    headers: { cookie, ...(init.headers as Record<string, string> | undefined) },
  });

const TOKENS_QUERY = `/graphql?query=${encodeURIComponent("{ apiTokens { tokenName } }")}`;

describe("CORS", () => {
  it("defaults to no cross-origin caller at all (only the server's own origin)", () => {
    expect(loadConfig({}).http.corsOrigins).toEqual([]);
  });

  it("gives a foreign origin no CORS header on GraphQL, /api/admin and /auth, cookie or not", async () => {
    for (const path of [TOKENS_QUERY, "/api/admin/api-tokens", "/auth/reset/validate?token=x"]) {
      const answer = await fromOrigin(EVIL, path);
      expect(answer.allowOrigin).toBeNull();
      expect(answer.allowCredentials).toBeNull();
    }
  });

  it("refuses a foreign preflight the same way", async () => {
    const answer = await fromOrigin(EVIL, "/graphql", {
      method: "OPTIONS",
      headers: { "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(answer.allowOrigin).toBeNull();
    expect(answer.allowCredentials).toBeNull();
  });

  it("lets a configured origin call with credentials (the cookie-authenticated token list)", async () => {
    const answer = await fromOrigin(UI, TOKENS_QUERY);
    expect(answer.status).toBe(200);
    expect(answer.allowOrigin).toBe(UI);
    expect(answer.allowCredentials).toBe("true");
    expect(JSON.parse(answer.body).data.apiTokens).toBeInstanceOf(Array);
    const preflight = await fromOrigin("https://other-ui.example", "/api/admin/projects", {
      method: "OPTIONS",
      headers: { "access-control-request-method": "POST" },
    });
    expect(preflight.allowOrigin).toBe("https://other-ui.example");
    expect(preflight.allowCredentials).toBe("true");
  });

  it("treats the server's own origin (VEXIL_URL, or the request's) as allowed", async () => {
    for (const origin of ["https://vexil.example", "http://vexil.test"]) {
      const answer = await fromOrigin(origin, "/api/admin/projects");
      expect(answer.allowOrigin).toBe(origin);
    }
  });

  it("keeps the frontend API's own origin list (FRONTEND_API_ORIGINS), without credentials", async () => {
    const shop = await fromOrigin(SHOP, "/api/frontend", { method: "OPTIONS" });
    expect(shop.allowOrigin).toBe(SHOP);
    expect(shop.allowCredentials).toBeNull();
    expect((await fromOrigin(UI, "/api/frontend/features", { method: "OPTIONS" })).allowOrigin).toBeNull();
    // ...and the admin list does not open the frontend list's origins to the admin API.
    expect((await fromOrigin(SHOP, "/api/admin/projects")).allowOrigin).toBeNull();
  });

  it("POST /api/admin/ui-config/cors stores the frontend API's origins: CORS and ui-config follow, never with credentials", async () => {
    const NEW_SHOP = "https://new-shop.example";
    const set = await t.rest("POST", "/api/admin/ui-config/cors", { frontendApiOrigins: [NEW_SHOP] });
    expect(set).toMatchObject({ status: 204, body: undefined });
    const fresh = await fromOrigin(NEW_SHOP, "/api/frontend", { method: "OPTIONS" });
    expect(fresh.allowOrigin).toBe(NEW_SHOP);
    expect(fresh.allowCredentials).toBeNull();
    expect((await fromOrigin(NEW_SHOP, "/ofrep/v1/evaluate/flags", { method: "OPTIONS" })).allowOrigin).toBe(
      NEW_SHOP,
    );
    expect((await fromOrigin(SHOP, "/api/frontend", { method: "OPTIONS" })).allowOrigin).toBeNull();
    // The frontend list never reaches the admin surfaces.
    expect((await fromOrigin(NEW_SHOP, "/api/admin/projects")).allowOrigin).toBeNull();
    expect((await t.rest("GET", "/api/admin/ui-config")).body.frontendApiOrigins).toEqual([NEW_SHOP]);
    const [event] = await t.database.prisma.event.findMany({ where: { type: "setting-created" } });
    expect(event).toMatchObject({
      data: { id: "unleash.frontend", frontendApiOrigins: [NEW_SHOP] },
      preData: { id: "unleash.frontend", frontendApiOrigins: [SHOP] },
    });
    // `*`: any page may read the frontend API, still without credentials.
    expect((await t.rest("POST", "/api/admin/ui-config/cors", { frontendApiOrigins: ["*"] })).status).toBe(
      204,
    );
    const any = await fromOrigin(EVIL, "/api/frontend", { method: "OPTIONS" });
    expect(["*", EVIL]).toContain(any.allowOrigin);
    expect(any.allowCredentials).toBeNull();
    expect(await t.database.prisma.event.count({ where: { type: "setting-updated" } })).toBe(1);
  });

  it("refuses what is not an origin (400) and callers other than admins (403)", async () => {
    for (const bad of [
      "https://shop.example/path",
      "shop.example",
      "ftp://shop.example",
      "https://shop.example/",
    ]) {
      const res = await t.rest("POST", "/api/admin/ui-config/cors", { frontendApiOrigins: [bad] });
      expect(res.status, bad).toBe(400);
    }
    expect((await t.rest("POST", "/api/admin/ui-config/cors", {})).status).toBe(400);
    const editor = (await userWithPat(t, "cors-editor", "Editor")).token;
    const res = await t.rest(
      "POST",
      "/api/admin/ui-config/cors",
      { frontendApiOrigins: ["https://x.example"] },
      editor,
    );
    expect(res.status).toBe(403);
  });
});
