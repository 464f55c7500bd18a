import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { userWithPat } from "../helpers/builders.ts";
import { login, PASSWORD } from "../helpers/session.ts";

let t: TestApp;
let viewerToken: string;
beforeAll(async () => {
  t = await createTestApp({ VEXIL_URL: "https://flags.example.com" });
  viewerToken = (await userWithPat(t, "rita", "Viewer")).token;
});
afterAll(() => t.close());

const NEW_PASSWORD = "Brand-New-Pa55word";
const requestReset = (body: unknown, token?: string | null) =>
  t.rest("POST", "/api/admin/user-admin/reset-password", body, token);
const tokenOf = (url: string) => new URL(url).searchParams.get("token") ?? "";
const validate = (token: string) =>
  t.app.fetch(`http://vexil.test/auth/reset/validate?token=${encodeURIComponent(token)}`);
const reset = (token: string, password: string) =>
  t.app.fetch("http://vexil.test/auth/reset/password", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token, password }),
  });

describe("reset password (spec 4.3 and the flow behind the link)", () => {
  // One user's story: a link, a second link, the password set with it.
  it("an admin gets a single-use link from the public URL; a second within a minute is 429, a later one expires the first; it sets a strong new password once", async () => {
    try {
      let firstLink = "";
      // an admin gets a single-use link built from the public URL
      {
        t.setNow(new Date("2030-05-01T10:00:00Z"));
        const res = await requestReset({ id: "rita@example.com" });
        expect(res.status).toBe(200);
        expect(res.body.resetPasswordUrl).toMatch(
          /^https:\/\/flags\.example\.com\/reset-password\?token=[0-9a-f]{64}$/,
        );
        firstLink = res.body.resetPasswordUrl;
      }
      // a second request for the same user within a minute is 429; after it, a new link expires the old
      {
        t.setNow(new Date("2030-05-01T10:00:30Z"));
        const again = await requestReset({ id: "rita@example.com" });
        expect(again.status).toBe(429);
        t.setNow(new Date("2030-05-01T10:01:01Z"));
        const second = await requestReset({ id: "rita@example.com" });
        expect(second.status).toBe(200);
        expect((await validate(tokenOf(firstLink))).status).toBe(401);
        const ok = await validate(tokenOf(second.body.resetPasswordUrl));
        expect(ok.status).toBe(200);
        expect(await ok.json()).toEqual({
          id: expect.any(Number),
          email: "rita@example.com",
          name: "rita",
          role: "Viewer",
          createdBy: "admin-token",
        });
        firstLink = second.body.resetPasswordUrl;
      }
      // sets a strong new password once, then logs in with it
      {
        const token = tokenOf(firstLink);
        const weak = await reset(token, "password");
        expect(weak.status).toBe(400);
        const reused = await reset(token, PASSWORD);
        expect(reused.status).toBe(400);
        expect((await reused.json()).name).toBe("PasswordPreviouslyUsedError");
        expect((await reset(token, NEW_PASSWORD)).status).toBe(200);
        expect((await reset(token, "Another-Pa55word!")).status).toBe(401);
        expect((await validate(token)).status).toBe(401);
        expect((await login(t, "rita", PASSWORD)).status).toBe(401);
        expect((await login(t, "rita", NEW_PASSWORD)).status).toBe(200);
      }
    } finally {
      t.setNow(null);
    }
  });

  it("answers 404 for an unknown email or username, 400 for a malformed body, 403 for non-admins", async () => {
    const unknown = await requestReset({
      id: "nobody@example.com",
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.name).toBe("NotFoundError");
    expect((await requestReset({ id: "no-such-user" })).status).toBe(404);
    expect((await requestReset({ id: 42 })).status).toBe(400);
    expect((await requestReset("[1,2")).status).toBe(400);
    expect((await requestReset([])).status).toBe(400);
    const denied = await requestReset({ id: "rita@example.com" }, viewerToken);
    expect(denied.status).toBe(403);
    expect((await requestReset({ id: "x" }, null)).status).toBe(401);
  });

  it("a link is valid for 24 hours", async () => {
    await userWithPat(t, "dora", "Viewer");
    t.setNow(new Date("2030-06-01T00:00:00Z"));
    try {
      const res = await requestReset({ id: "dora@example.com" });
      const token = tokenOf(res.body.resetPasswordUrl);
      t.setNow(new Date("2030-06-01T23:59:00Z"));
      expect((await validate(token)).status).toBe(200);
      t.setNow(new Date("2030-06-02T00:00:00Z"));
      expect((await validate(token)).status).toBe(401);
      expect((await reset(token, "Later-Pa55word!x")).status).toBe(401);
    } finally {
      t.setNow(null);
    }
  });

  it("looks the user up by email only, as Unleash: a username is 404 with Unleash's body", async () => {
    await userWithPat(t, "ursula", "Viewer");
    const byUsername = await requestReset({ id: "ursula" });
    expect(byUsername.status).toBe(404);
    expect(byUsername.body).toEqual({
      id: expect.any(String),
      name: "NotFoundError",
      message: "No user found",
      details: [{ message: "No user found" }],
    });
    expect((await requestReset({ id: "URSULA@example.com" })).status).toBe(200);
  });
});
