import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../helpers/app.ts";
import { login, PASSWORD, withSession } from "../helpers/session.ts";

const logLines: string[] = [];
const responses: { url: string; text: string; headers: string }[] = [];
let base: TestApp;
/** The test app, with every response recorded (body and headers other than Set-Cookie). */
let t: TestApp;
beforeAll(async () => {
  base = await createTestApp({}, { log: (line) => logLines.push(line) });
  const fetch = async (input: string, init?: RequestInit) => {
    const res = await (base.app.fetch as (i: string, init?: RequestInit) => Promise<Response>)(input, init);
    const headers = [...res.headers.entries()]
      .filter(([k]) => k !== "set-cookie")
      .map(([k, v]) => `${k}: ${v}`);
    responses.push({ url: String(input), text: await res.clone().text(), headers: headers.join("\n") });
    return res;
  };
  const send = async (method: string, path: string, body: unknown, token: string | null | undefined) => {
    const res = await fetch(`http://vexil.test${path}`, {
      method,
      headers: {
        "content-type": "application/json",
        ...(token === null ? {} : { authorization: token ?? ADMIN_TOKEN }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };
  t = {
    ...base,
    app: { fetch } as unknown as TestApp["app"],
    rest: (method, path, body, token) => send(method, path, body, token),
    gql: async (query, variables, token) =>
      (await send("POST", "/graphql", { query, variables }, token)).body,
  };
});
afterAll(() => base.close());

const NEW_PASSWORD = "Fresh-Pa55word-9";

describe("no secret or password hash in any response, event or log line", () => {
  it("walks every credential flow, then greps everything that left the server", async () => {
    const secrets: { what: string; value: string; shownOnce: boolean }[] = [
      { what: "admin password", value: "Admin-Password-1", shownOnce: false },
      { what: "user password", value: PASSWORD, shownOnce: false },
      { what: "new password", value: NEW_PASSWORD, shownOnce: false },
    ];
    const user = await t.rest("POST", "/api/admin/user-admin", {
      username: "sec",
      email: "sec@example.com",
      password: PASSWORD,
    });
    expect(user.status).toBe(201);
    const { session } = await login(t, "sec");
    const sessionSecret = session.cookie.match(/vexil-session=([^;]+)/)?.[1] ?? "";
    secrets.push({ what: "session", value: sessionSecret, shownOnce: false });
    secrets.push({ what: "csrf", value: session.csrf, shownOnce: false });

    const pat = await withSession(t, session, "POST", "/api/admin/user/tokens", {
      description: "x",
      expiresAt: "2099-01-01T00:00:00.000Z",
    });
    secrets.push({ what: "PAT", value: pat.body.secret, shownOnce: true });
    await t.rest("GET", "/api/admin/user/tokens", undefined, pat.body.secret);
    for (const type of ["client", "frontend", "admin"]) {
      const token = await t.rest("POST", "/api/admin/api-tokens", {
        tokenName: `t-${type}`,
        type,
        environment: "development",
      });
      expect(token.status).toBe(201);
      secrets.push({ what: `${type} token`, value: token.body.secret, shownOnce: true });
      await t.rest("GET", "/api/admin/ui-config", undefined, token.body.secret);
    }
    await t.rest("GET", "/api/admin/api-tokens");
    await t.rest("DELETE", `/api/admin/user/tokens/${pat.body.id}`, undefined, pat.body.secret);

    const link = await t.rest("POST", "/api/admin/user-admin/reset-password", { id: "sec@example.com" });
    const resetToken = new URL(link.body.resetPasswordUrl).searchParams.get("token") ?? "";
    secrets.push({ what: "reset token", value: resetToken, shownOnce: true });
    await t.app.fetch(`http://vexil.test/auth/reset/validate?token=${resetToken}`);
    await t.app.fetch("http://vexil.test/auth/reset/password", {
      method: "POST",
      body: JSON.stringify({ token: resetToken, password: NEW_PASSWORD }),
    });
    await login(t, "sec", NEW_PASSWORD);
    await login(t, "sec", "Wrong-Passw0rd-1");
    await t.rest("PUT", `/api/admin/user-admin/${user.body.id}`, { name: "Sec" });
    await t.rest("GET", "/api/admin/user-admin");
    await t.gql(`{ users { id username email } viewer { name } }`);
    await t.gql(`{ events(first: 1000) { edges { node { type data preData createdBy } } } }`);
    await t.rest("GET", "/api/admin/ui-config", undefined, "*:*.wrong-secret");
    await t.rest("DELETE", `/api/admin/user-admin/${user.body.id}`);

    const db = t.database.prisma;
    const hashes = [
      ...(await db.user.findMany()).flatMap((u) => (u.passwordHash ? [u.passwordHash] : [])),
      ...(await db.passwordHistory.findMany()).map((p) => p.passwordHash),
      ...(await db.apiToken.findMany()).map((x) => x.secretHash),
      ...(await db.personalAccessToken.findMany()).map((x) => x.secretHash),
      ...(await db.userSession.findMany()).map((x) => x.id),
      ...(await db.resetToken.findMany()).map((x) => x.tokenHash),
    ];
    expect(hashes.length).toBeGreaterThan(5);
    const events = JSON.stringify(await db.event.findMany(), (_k, v) =>
      typeof v === "bigint" ? Number(v) : v,
    );
    expect(events).toContain("api-token-created");

    const leaks: string[] = [];
    for (const secret of secrets) {
      const shown = responses.filter(
        (r) => r.text.includes(secret.value) || r.headers.includes(secret.value),
      );
      if (shown.length > (secret.shownOnce ? 1 : 0))
        leaks.push(`${secret.what} in ${shown.map((r) => r.url).join(", ")}`);
      if (events.includes(secret.value)) leaks.push(`${secret.what} in events`);
      if (logLines.some((l) => l.includes(secret.value))) leaks.push(`${secret.what} in logs`);
    }
    for (const hash of hashes) {
      const shown = responses.filter((r) => r.text.includes(hash) || r.headers.includes(hash));
      if (shown.length > 0) leaks.push(`a hash in ${shown.map((r) => r.url).join(", ")}`);
      if (events.includes(hash)) leaks.push("a hash in events");
      if (logLines.some((l) => l.includes(hash))) leaks.push("a hash in logs");
    }
    const everything = [...responses.map((r) => r.text), events, ...logLines].join("\n");
    if (everything.includes("scrypt$")) leaks.push("a password hash (scrypt$...)");
    expect(leaks).toEqual([]);
    expect(responses.length).toBeGreaterThan(20);
  });
});
