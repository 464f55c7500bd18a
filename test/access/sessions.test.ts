import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { userWithPat } from "../helpers/builders.ts";
import { login, PASSWORD, withSession } from "../helpers/session.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: "4" });
  await userWithPat(t, "sally", "Editor");
});
afterAll(() => t.close());

describe("password login sessions", () => {
  it("logs in with username or email, setting an HttpOnly SameSite session cookie and a CSRF cookie", async () => {
    const res = await login(t, "sally@example.com");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ username: "sally", email: "sally@example.com", rootRole: "Editor" });
    expect(JSON.stringify(res.body)).not.toMatch(/scrypt|password/i);
    const [session, csrf] = res.session.setCookies;
    expect(session).toMatch(/^vexil-session=[\w-]{20,}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=172800$/);
    expect(csrf).toMatch(/^vexil-csrf=[\w-]{20,}; Path=\/; SameSite=Strict/);
    expect(csrf).not.toContain("HttpOnly");
  });

  it("the session cookie authenticates GraphQL and REST reads", async () => {
    const { session } = await login(t, "sally");
    const me = await withSession(t, session, "GET", "/api/admin/user");
    expect(me.status).toBe(200);
    expect(me.body.user).toMatchObject({ username: "sally", rootRole: "Editor" });
    const gql = await withSession(t, session, "POST", "/graphql", { query: "{ viewer { name via kind } }" });
    expect(gql.body).toEqual({ data: { viewer: { name: "sally", via: "session", kind: "user" } } });
  });

  it("refuses cross-site cookie-authenticated writes (403): no CSRF header and a foreign Origin or a form body", async () => {
    const { session } = await login(t, "sally");
    const body = { description: "ci", expiresAt: "2099-01-01T00:00:00.000Z" };
    const evil = { csrf: false, origin: "https://evil.example" };
    const without = await withSession(t, session, "POST", "/api/admin/user/tokens", body, evil);
    expect(without.status).toBe(403);
    expect(without.body.message).toMatch(/CSRF/);
    const form = await withSession(t, session, "POST", "/api/admin/user/tokens", body, {
      csrf: false,
      contentType: "text/plain",
    });
    // Refused either way: a form body is not JSON (415) and not same-site without the header (403).
    expect([403, 415]).toContain(form.status);
    const gqlForm = await withSession(
      t,
      session,
      "POST",
      "/graphql",
      { query: "{ viewer { name } }" },
      {
        csrf: false,
        contentType: "text/plain",
      },
    );
    expect(JSON.stringify(gqlForm.body ?? null)).not.toContain("sally");
    const forged = await withSession(
      t,
      { ...session, csrf: "guessed" },
      "POST",
      "/api/admin/user/tokens",
      body,
      { origin: "https://evil.example" },
    );
    expect(forged.status).toBe(403);
    const gqlWithout = await withSession(
      t,
      session,
      "POST",
      "/graphql",
      { query: "{ viewer { name } }" },
      evil,
    );
    expect(gqlWithout.body.errors[0].extensions.code).toBe("FORBIDDEN");
    const ok = await withSession(t, session, "POST", "/api/admin/user/tokens", body, {
      origin: "https://evil.example",
    });
    expect(ok.status).toBe(201);
  });

  it("a script's JSON write with the session cookie needs no CSRF header (no Origin, or Vexil's own)", async () => {
    const { session } = await login(t, "sally");
    const body = { description: "script", expiresAt: "2099-01-01T00:00:00.000Z" };
    const script = await withSession(t, session, "POST", "/api/admin/user/tokens", body, { csrf: false });
    expect(script.status).toBe(201);
    const sameOrigin = await withSession(t, session, "POST", "/api/admin/user/tokens", body, {
      csrf: false,
      origin: "http://vexil.test",
    });
    expect(sameOrigin.status).toBe(201);
  });

  it("logout ends the session and clears the cookies", async () => {
    const { session } = await login(t, "sally");
    const out = await withSession(t, session, "POST", "/auth/logout");
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().join("\n")).toMatch(/vexil-session=; Path=\/; Max-Age=0/);
    expect((await withSession(t, session, "GET", "/api/admin/user")).status).toBe(401);
  });

  it("logout needs the CSRF token, as every cookie-authenticated change: a cross-site page cannot log out", async () => {
    const { session } = await login(t, "sally");
    const form = { csrf: false, contentType: "text/plain", origin: "https://evil.example" } as const;
    const crossSite = await withSession(t, session, "POST", "/auth/logout", undefined, form);
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).toMatchObject({
      name: "ForbiddenOperation",
      message: expect.stringMatching(/CSRF/),
    });
    const foreignJson = await withSession(t, session, "POST", "/auth/logout", undefined, {
      csrf: false,
      origin: "https://evil.example",
    });
    expect(foreignJson.status).toBe(403);
    expect((await withSession(t, session, "GET", "/api/admin/user")).status).toBe(200);
    // The web UI's own call: a JSON request from Vexil's origin.
    const ui = await withSession(t, session, "POST", "/auth/logout", undefined, {
      csrf: false,
      origin: "http://vexil.test",
    });
    expect(ui.status).toBe(200);
    expect((await withSession(t, session, "GET", "/api/admin/user")).status).toBe(401);
  });

  it("a wrong password is 401 without saying which part was wrong", async () => {
    const res = await login(t, "sally", "Wrong-Passw0rd!");
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("Wrong password, try again.");
    expect((await login(t, "nobody", PASSWORD)).body.message).toBe("Wrong password, try again.");
  });

  it("rate-limits login attempts per account (429); see login-limits.test.ts for addresses", async () => {
    for (let i = 0; i < 4; i++) expect((await login(t, "limited", "x")).status).toBe(401);
    const limited = await login(t, "limited", "x");
    expect(limited.status).toBe(429);
    expect(limited.body.name).toBe("RateLimitError");
  });

  it("a malformed login body is 400", async () => {
    const res = await t.app.fetch("http://vexil.test/auth/simple/login", { method: "POST", body: "nope" });
    expect(res.status).toBe(400);
  });
});
