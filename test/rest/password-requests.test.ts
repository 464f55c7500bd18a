import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, withClock } from "../helpers/app.ts";
import { userWithPat } from "../helpers/builders.ts";

/**
 * Unleash's public password operations (issue 14): asking for a reset link by email, which
 * answers the same whether the account exists or not, and the password strength check.
 */
let t: TestApp;
let user: Awaited<ReturnType<typeof userWithPat>>;
const lines: string[] = [];
const EMAIL_PATH = "/auth/reset/password-email";

beforeAll(async () => {
  t = await createTestApp({}, { log: (line) => lines.push(line) });
  user = await userWithPat(t, "forgetful", "Viewer");
});
afterAll(() => t.close());

const openTokens = () =>
  t.database.prisma.resetToken.count({
    where: { userId: user.id, usedAt: null, expiresAt: { gt: new Date() } },
  });

describe("POST /auth/reset/password-email", () => {
  it("an existing user gets a reset link (other open links expire); the answer is an empty 200", async () => {
    // Two minutes ago, so that the user's own request is not throttled behind it.
    const admin = await withClock(t, new Date(Date.now() - 120_000), () =>
      t.rest("POST", "/api/admin/user-admin/reset-password", { id: "forgetful@example.com" }),
    );
    expect(admin.status).toBe(200);
    const res = await t.rest("POST", EMAIL_PATH, { email: "Forgetful@example.com" }, null);
    expect(res.status).toBe(200);
    expect(res.body).toBeUndefined();
    expect(await openTokens()).toBe(1);
    const newest = await t.database.prisma.resetToken.findFirstOrThrow({
      where: { userId: user.id },
      orderBy: { createdAt: "desc" },
    });
    expect(newest.createdByUserId).toBe(-1337);
    // the admin's link is no longer valid: the new one replaced it
    const old = new URL(admin.body.resetPasswordUrl).searchParams.get("token");
    expect((await t.rest("GET", `/auth/reset/validate?token=${old}`, undefined, null)).status).toBe(401);
    // never written to the log
    expect(lines.some((l) => /reset-password\?token=|"resetPasswordUrl"/.test(l))).toBe(false);
    expect(lines.some((l) => l.includes("not sent"))).toBe(true);
  });

  it("unknown email and a repeat within a minute answer the same 200 and make no link", async () => {
    const before = await t.database.prisma.resetToken.count();
    const unknown = await t.rest("POST", EMAIL_PATH, { email: "nobody@example.com" }, null);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toBeUndefined();
    const repeat = await t.rest("POST", EMAIL_PATH, { email: "forgetful@example.com" }, null);
    expect(repeat.status).toBe(200);
    expect(repeat.body).toBeUndefined();
    expect(await t.database.prisma.resetToken.count()).toBe(before);
  });

  it("400 without an email", async () => {
    expect((await t.rest("POST", EMAIL_PATH, {}, null)).status).toBe(400);
    expect((await t.rest("POST", EMAIL_PATH, { email: 3 }, null)).status).toBe(400);
  });
});

describe("POST /auth/reset/validate-password", () => {
  const path = "/auth/reset/validate-password";
  it("200 empty for a strong password", async () => {
    const res = await t.rest("POST", path, { password: "Str0ng-Passw0rd!" }, null);
    expect(res.status).toBe(200);
    expect(res.body).toBeUndefined();
  });

  it("400 listing every rule a weak password breaks; 400 without a password", async () => {
    const res = await t.rest("POST", path, { password: "aaa" }, null);
    expect(res.status).toBe(400);
    expect(res.body.name).toBe("ValidationError");
    const messages = (res.body.details as { message: string }[]).map((d) => d.message).join(" ");
    expect(messages).toMatch(/at least 10 characters/);
    expect(messages).toMatch(/uppercase/);
    expect(messages).toMatch(/three or more repeated/);
    expect((await t.rest("POST", path, {}, null)).status).toBe(400);
  });
});
