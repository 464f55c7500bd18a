import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { eventsOf, userWithPat } from "../helpers/builders.ts";

/** API tokens allowed; the limit's test fills the room left, then deletes what it made. */
const API_TOKENS_LIMIT = 10;

let t: TestApp;
let editor: { id: number; token: string };
let viewer: { id: number; token: string };
beforeAll(async () => {
  t = await createTestApp({ UNLEASH_API_TOKENS_LIMIT: String(API_TOKENS_LIMIT) });
  editor = await userWithPat(t, "ed", "Editor");
  viewer = await userWithPat(t, "vi", "Viewer");
});
afterAll(() => t.close());

const postApiToken = (body: unknown, token?: string) => t.rest("POST", "/api/admin/api-tokens", body, token);
const postPat = (body: unknown, token?: string) => t.rest("POST", "/api/admin/user/tokens", body, token);

/** A client token of a test's own (development, every project); returns its secret and id. */
async function clientToken(tokenName: string) {
  const res = await postApiToken({ tokenName, type: "client", environment: "development" });
  expect(res.status).toBe(201);
  return { secret: res.body.secret as string, id: res.body.id as number };
}

describe("API tokens", () => {
  it("an Editor creates a client token scoped to a project and one environment; the secret is shown once", async () => {
    const res = await postApiToken(
      { tokenName: "checkout-service", type: "backend", environment: "production", projects: ["default"] },
      editor.token,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      tokenName: "checkout-service",
      type: "client",
      environment: "production",
      project: "default",
      projects: ["default"],
      displayPrefix: "default:production.",
      seenAt: null,
    });
    expect(res.body.secret).toMatch(/^default:production\.[0-9a-f]{56}$/);
    const clientSecret = res.body.secret;
    const list = await t.rest("GET", "/api/admin/api-tokens", undefined, editor.token);
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(clientSecret);
    expect(list.body.tokens.map((x: { tokenName: string }) => x.tokenName)).toContain("checkout-service");
    expect(JSON.stringify(await eventsOf(t, ["api-token-created"]))).not.toContain(
      clientSecret.split(".")[1],
    );
  });

  it("a client token cannot use the admin API (403), and its use is not 401", async () => {
    const { secret: clientSecret } = await clientToken("admin-api-caller");
    const res = await t.rest("GET", "/api/admin/ui-config", undefined, clientSecret);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe("invalid token: expected a different token type for this endpoint");
  });

  it("records when a token was last used, at most once a minute", async () => {
    const { secret: clientSecret, id: clientId } = await clientToken("seen-caller");
    t.setNow(new Date("2031-01-01T12:00:00Z"));
    await t.rest("GET", "/api/admin/ui-config", undefined, clientSecret);
    t.setNow(new Date("2031-01-01T12:00:30Z"));
    await t.rest("GET", "/api/admin/ui-config", undefined, clientSecret);
    t.setNow(null);
    const list = await t.rest("GET", "/api/admin/api-tokens");
    const token = list.body.tokens.find((x: { id: number }) => x.id === clientId);
    expect(token.seenAt).toBe("2031-01-01T12:00:00.000Z");
  });

  it("validates type, environment and projects", async () => {
    const bad = [
      { tokenName: "x", type: "sdk" },
      { tokenName: "x", type: "client", environment: "nowhere" },
      { tokenName: "x", type: "client", projects: ["no-such-project"] },
      { tokenName: "x", type: "client", environment: "*" },
      { type: "client" },
    ];
    for (const body of bad) {
      const res = await postApiToken(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it("Viewers may not read or create tokens; Editors may not create admin tokens", async () => {
    expect((await t.rest("GET", "/api/admin/api-tokens", undefined, viewer.token)).status).toBe(403);
    const body = { tokenName: "x", type: "client", environment: "development" };
    expect((await postApiToken(body, viewer.token)).status).toBe(403);
    const admin = await postApiToken({ tokenName: "root", type: "admin" }, editor.token);
    expect(admin.status).toBe(403);
    expect(admin.body.permissions).toEqual(["ADMIN"]);
    const list = await t.rest("GET", "/api/admin/api-tokens", undefined, editor.token);
    expect(list.body.tokens.map((x: { type: string }) => x.type)).not.toContain("admin");
  });

  it("an admin creates an admin token that works at once; revoking it stops it at once", async () => {
    const created = await postApiToken({ tokenName: "ops", type: "admin" });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^\*:\*\.[0-9a-f]{56}$/);
    expect((await t.rest("GET", "/api/admin/user-admin", undefined, created.body.secret)).status).toBe(200);
    expect((await t.rest("DELETE", `/api/admin/api-tokens/${created.body.id}`)).status).toBe(200);
    expect((await t.rest("GET", "/api/admin/user-admin", undefined, created.body.secret)).status).toBe(401);
    const deleted = (await eventsOf(t, ["api-token-deleted"])).filter((e) => e.preData?.tokenName === "ops");
    expect(deleted).toHaveLength(1);
    expect(deleted[0]?.preData).toMatchObject({ tokenName: "ops", type: "admin" });
    expect((await t.rest("DELETE", "/api/admin/api-tokens/999999")).status).toBe(404);
  });

  it("a remembered token still expires on time", async () => {
    const created = await postApiToken({
      tokenName: "short-lived",
      type: "admin",
      expiresAt: "2030-01-01T00:00:00Z",
    });
    expect(created.status).toBe(201);
    expect((await t.rest("GET", "/api/admin/ui-config", undefined, created.body.secret)).status).toBe(200);
    expect((await t.rest("GET", "/api/admin/ui-config", undefined, created.body.secret)).status).toBe(200);
    t.setNow(new Date("2030-01-01T00:00:01Z"));
    try {
      expect((await t.rest("GET", "/api/admin/ui-config", undefined, created.body.secret)).status).toBe(401);
    } finally {
      t.setNow(null);
    }
  });

  it("stops at the configured token limit (ExceedsLimitError)", async () => {
    const room = API_TOKENS_LIMIT - (await t.database.prisma.apiToken.count());
    const made: number[] = [];
    for (let i = 0; i < room; i++) made.push((await clientToken(`n${i}`)).id);
    const last = await postApiToken({ tokenName: `n${room}`, type: "client" });
    expect(last.status).toBe(400);
    expect(last.body.name).toBe("ExceedsLimitError");
    for (const id of made) expect((await t.rest("DELETE", `/api/admin/api-tokens/${id}`)).status).toBe(200);
  });
});

describe("personal access tokens", () => {
  it("a user creates, lists and deletes their own PATs; the PAT acts as the user", async () => {
    const owner = await userWithPat(t, "pat-owner", "Viewer");
    const created = await postPat(
      { description: "laptop", expiresAt: "2099-01-01T00:00:00.000Z" },
      owner.token,
    );
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^user:[0-9a-f]{56}$/);
    const me = await t.rest("GET", "/api/admin/user", undefined, created.body.secret);
    expect(me.body.user).toMatchObject({ username: "pat-owner", rootRole: "Viewer" });
    const list = await t.rest("GET", "/api/admin/user/tokens", undefined, owner.token);
    expect(list.body.pats.map((p: { description: string }) => p.description)).toEqual(["tests", "laptop"]);
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret);
    const others = await t.rest(
      "DELETE",
      `/api/admin/user/tokens/${created.body.id}`,
      undefined,
      editor.token,
    );
    expect(others.status).toBe(404);
    expect(
      (await t.rest("DELETE", `/api/admin/user/tokens/${created.body.id}`, undefined, owner.token)).status,
    ).toBe(200);
    expect((await t.rest("GET", "/api/admin/user", undefined, created.body.secret)).status).toBe(401);
    const events = await eventsOf(t, ["pat-created", "pat-deleted"]);
    expect(events.map((e) => e.type).slice(-2)).toEqual(["pat-created", "pat-deleted"]);
    expect(JSON.stringify(events)).not.toContain(created.body.secret.slice(5));
  });

  it("an expired PAT is refused (401); an expiry in the past is refused at creation (400)", async () => {
    const created = await postPat(
      { description: "short", expiresAt: "2040-01-01T00:00:00.000Z" },
      viewer.token,
    );
    t.setNow(new Date("2040-01-01T00:00:01Z"));
    expect((await t.rest("GET", "/api/admin/user", undefined, created.body.secret)).status).toBe(401);
    t.setNow(null);
    const past = await postPat({ description: "old", expiresAt: "2001-01-01T00:00:00.000Z" }, viewer.token);
    expect(past.status).toBe(400);
  });

  it("an admin API token has no user, so it cannot have PATs (403) and lists none", async () => {
    const res = await postPat({
      description: "x",
      expiresAt: "2099-01-01T00:00:00.000Z",
    });
    expect(res.status).toBe(403);
    expect((await t.rest("GET", "/api/admin/user/tokens")).body).toEqual({ pats: [] });
  });
});
