import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createListeningTestApp, type ListeningTestApp } from "../helpers/app.ts";
import { createFlag, lastEventId } from "../helpers/builders.ts";
import type { Result } from "./live-helpers.ts";

/**
 * The web UI follows events over graphql-ws with its session: the cookie of the upgrade
 * request plus the session's CSRF token in the connection parameters. Without the token (what
 * a page of another site could do with the user's cookie) the socket is refused.
 */
let t: ListeningTestApp;
beforeAll(async () => {
  t = await createListeningTestApp();
});
afterAll(() => t?.close());

async function login(): Promise<{ cookie: string; csrf: string }> {
  const response = await fetch(`${t.url}/auth/simple/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password: "Admin-Password-1" }),
  });
  expect(response.status).toBe(200);
  const cookies = response.headers.getSetCookie().map((c) => c.split(";")[0] as string);
  const csrf = cookies.find((c) => c.startsWith("vexil-csrf="))?.slice("vexil-csrf=".length) ?? "";
  return { cookie: cookies.join("; "), csrf };
}

function sessionSocket(cookie: string, connectionParams: Record<string, unknown>) {
  let closeCode: number | undefined;
  const client = createClient({
    url: `${t.url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: class extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers: { cookie } });
      }
    },
    connectionParams,
    retryAttempts: 0,
    lazy: true,
    on: { closed: (event) => (closeCode = (event as { code: number }).code) },
  });
  return { client, closeCode: () => closeCode };
}

const EVENTS = `subscription($afterId: Long) { events(afterId: $afterId) { type featureName } }`;
type Ev = { events: { type: string; featureName: string | null } };

describe("graphql-ws with a session cookie", () => {
  it("delivers events to a session that sends its CSRF token", async () => {
    const { cookie, csrf } = await login();
    const { client } = sessionSocket(cookie, { csrfToken: csrf });
    const stream = client.iterate({ query: EVENTS, variables: { afterId: await lastEventId(t) } });
    await createFlag(t, "seen-by-session");
    const first = (await stream.next()).value as Result<Ev>;
    expect(first.data?.events).toEqual({ type: "feature-created", featureName: "seen-by-session" });
    await stream.return?.();
    await client.dispose();
  });

  it.each([
    ["no CSRF token", {}],
    ["a wrong CSRF token", { csrfToken: "not-the-token" }],
  ])("refuses the session cookie with %s (4403)", async (_name, params) => {
    const { cookie } = await login();
    const { client, closeCode } = sessionSocket(cookie, params);
    const stream = client.iterate({ query: EVENTS });
    await expect(stream.next()).rejects.toBeDefined();
    expect(closeCode()).toBe(4403);
    await client.dispose();
  });

  it("refuses a CSRF token without the cookie, and a logged-out session", async () => {
    const { cookie, csrf } = await login();
    const noCookie = sessionSocket("", { csrfToken: csrf });
    await expect(noCookie.client.iterate({ query: EVENTS }).next()).rejects.toBeDefined();
    expect(noCookie.closeCode()).toBe(4403);
    await fetch(`${t.url}/auth/logout`, { method: "POST", headers: { cookie, "x-csrf-token": csrf } });
    const loggedOut = sessionSocket(cookie, { csrfToken: csrf });
    await expect(loggedOut.client.iterate({ query: EVENTS }).next()).rejects.toBeDefined();
    expect(loggedOut.closeCode()).toBe(4403);
  });
});
