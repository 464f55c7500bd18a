import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createListeningTestApp, type ListeningTestApp } from "../helpers/app.ts";
import {
  addProjectMember,
  createFlag,
  createProject,
  createUser,
  lastEventId,
  PROJECT_ROLE,
  userWithPat,
} from "../helpers/builders.ts";
import { type Result, sse, wsClient } from "./live-helpers.ts";

/**
 * Subscriptions end when their credential is deleted, revoked, logged out or expired, or its
 * permissions change (graphql-ws and SSE), within a second.
 */
let t: ListeningTestApp;
beforeAll(async () => {
  t = await createListeningTestApp();
});
afterAll(() => t?.close());

type Ev = { events: { type: string; featureName: string | null } };
const EVENTS = `subscription($afterId: Long) { events(afterId: $afterId) { type featureName } }`;

async function apiToken(name: string) {
  const res = await t.gql<{ createApiToken: { secret: string; token: { id: number } } }>(
    `mutation($n: String!) { createApiToken(input: { tokenName: $n, type: "admin" }) { secret token { id: databaseId } } }`,
    { n: name },
  );
  expect(res.errors).toBeUndefined();
  return res.data!.createApiToken;
}

/** Reads the stream until it ends; the items it got before. */
async function drain<T>(stream: AsyncIterator<T>): Promise<T[]> {
  const got: T[] = [];
  for (;;) {
    const item = await stream.next();
    if (item.done) return got;
    got.push(item.value);
  }
}

describe("a subscription outlives no credential", () => {
  it("graphql-ws: a deleted user's subscription ends; the other one goes on", async () => {
    const user = await userWithPat(t, "soon-gone", "Admin");
    const keeper = await apiToken("keeper");
    const doomed = wsClient(t.url, user.token);
    const kept = wsClient(t.url, keeper.secret);
    const variables = { afterId: await lastEventId(t) };
    const doomedStream = doomed.iterate({ query: EVENTS, variables }) as AsyncIterableIterator<Result<Ev>>;
    const keptStream = kept.iterate({ query: EVENTS, variables }) as AsyncIterableIterator<Result<Ev>>;
    await createFlag(t, "before-deletion");
    expect((await doomedStream.next()).value.data?.events.featureName).toBe("before-deletion");
    expect((await keptStream.next()).value.data?.events.featureName).toBe("before-deletion");
    expect((await t.rest("DELETE", `/api/admin/user-admin/${user.id}`)).status).toBe(200);
    const rest = await drain(doomedStream);
    expect(rest.map((r) => r.data?.events.featureName)).not.toContain("after-deletion");
    await createFlag(t, "after-deletion");
    const next = await keptStream.next();
    // The keeper sees the deletion's event and the new flag; the deleted user's stream is over.
    const seen = [next.value.data?.events.type];
    while (!seen.includes("feature-created")) seen.push((await keptStream.next()).value.data?.events.type);
    expect(seen).toContain("user-deleted");
    await doomed.dispose();
    await kept.dispose();
  });

  it("SSE: a deleted API token's stream ends", async () => {
    const token = await apiToken("sse-token");
    const stream = sse<Ev>(t.app, EVENTS, { afterId: await lastEventId(t) }, token.secret);
    const first = stream.next();
    await createFlag(t, "sse-before");
    expect((await first).value?.data?.events.featureName).toBe("sse-before");
    const deleted = await t.gql(`mutation($id: Int!) { deleteApiToken(id: $id) }`, { id: token.token.id });
    expect(deleted.errors).toBeUndefined();
    const rest = await drain(stream);
    expect(rest.every((r) => r.data?.events.featureName !== "sse-after")).toBe(true);
  });

  it("graphql-ws: a deleted token cannot subscribe again on the same connection", async () => {
    const token = await apiToken("reused");
    const client = wsClient(t.url, token.secret);
    const variables = { afterId: await lastEventId(t) };
    const stream = client.iterate({ query: EVENTS, variables }) as AsyncIterableIterator<Result<Ev>>;
    await createFlag(t, "reuse-before");
    expect((await stream.next()).value.data?.events.featureName).toBe("reuse-before");
    await t.gql(`mutation($id: Int!) { deleteApiToken(id: $id) }`, { id: token.token.id });
    await drain(stream);
    const again = client.iterate({ query: EVENTS, variables }) as AsyncIterableIterator<Result<Ev>>;
    const refused = await again.next().then(
      (item) => JSON.stringify(item.value?.errors),
      (reason: unknown) =>
        Array.isArray(reason) ? JSON.stringify(reason) : String((reason as { code?: number }).code ?? reason),
    );
    expect(refused).toMatch(/UNAUTHENTICATED|log in|4403|Forbidden/i);
    await client.dispose();
  });
});

/** Resolves with the time (ms since `from`) at which the stream ends, and what it got until then. */
async function endsAfter<T>(stream: AsyncIterator<T>, from: () => number) {
  const got = await drain(stream);
  return { afterMs: performance.now() - from(), got };
}

const USER_EVENTS = `subscription($afterId: Long) { events(afterId: $afterId) { type featureName data } }`;
type UserEv = { events: { type: string; featureName: string | null; data: unknown } };

describe("a subscription outlives no change of its credential's permissions", () => {
  it("graphql-ws: a demoted Admin's stream ends within a second; no user-created after that", async () => {
    const user = await userWithPat(t, "demoted-admin", "Admin");
    const client = wsClient(t.url, user.token);
    const stream = client.iterate({
      query: USER_EVENTS,
      variables: { afterId: await lastEventId(t) },
    }) as AsyncIterableIterator<Result<UserEv>>;
    await createFlag(t, "before-demotion");
    expect((await stream.next()).value.data?.events.featureName).toBe("before-demotion");
    let demotedAt = 0;
    const ended = endsAfter(stream, () => demotedAt);
    const demoted = await t.gql(
      `mutation($id: Int!) { updateUser(id: $id, input: { rootRole: "Viewer" }) { id } }`,
      {
        id: user.id,
      },
    );
    expect(demoted.errors).toBeUndefined();
    demotedAt = performance.now();
    const { afterMs, got } = await ended;
    expect(afterMs).toBeLessThan(1000);
    await createUser(t, "created-after-demotion", "Viewer");
    expect(got.map((r) => r.data?.events.type)).not.toContain("user-created");
    // Subscribing again gets the Viewer's view: no user events.
    const again = client.iterate({
      query: USER_EVENTS,
      variables: { afterId: await lastEventId(t) },
    }) as AsyncIterableIterator<Result<UserEv>>;
    await createUser(t, "created-while-viewer", "Viewer");
    await createFlag(t, "after-demotion");
    expect((await again.next()).value.data?.events).toMatchObject({ type: "feature-created" });
    await client.dispose();
  });

  it("graphql-ws: a removed project membership ends the stream that relied on it", async () => {
    const user = await userWithPat(t, "member-then-not", "Viewer");
    await createProject(t, "members-only");
    await addProjectMember(t, "members-only", user.id, PROJECT_ROLE.member);
    const client = wsClient(t.url, user.token);
    const stream = client.iterate({
      query: EVENTS,
      variables: { afterId: await lastEventId(t) },
    }) as AsyncIterableIterator<Result<Ev>>;
    await createFlag(t, "member-flag", { project: "members-only" });
    expect((await stream.next()).value.data?.events.featureName).toBe("member-flag");
    let removedAt = 0;
    const ended = endsAfter(stream, () => removedAt);
    const removed = await t.gql(
      `mutation($u: Int!, $r: Int!) { removeProjectMember(project: "members-only", userId: $u, roleId: $r) }`,
      { u: user.id, r: PROJECT_ROLE.member },
    );
    expect(removed.errors).toBeUndefined();
    removedAt = performance.now();
    expect((await ended).afterMs).toBeLessThan(1000);
    await client.dispose();
  });

  it("graphql-ws with a session: logout ends the stream within a second", async () => {
    const user = await userWithPat(t, "logs-out", "Admin");
    const { client } = sessionSocket(user.session);
    const stream = client.iterate({
      query: EVENTS,
      variables: { afterId: await lastEventId(t) },
    }) as AsyncIterableIterator<Result<Ev>>;
    await createFlag(t, "before-logout");
    expect((await stream.next()).value.data?.events.featureName).toBe("before-logout");
    let loggedOutAt = 0;
    const ended = endsAfter(stream, () => loggedOutAt);
    const out = await fetch(`${t.url}/auth/logout`, {
      method: "POST",
      headers: { cookie: user.session.cookie, "x-csrf-token": user.session.csrf },
    });
    expect(out.status).toBe(200);
    loggedOutAt = performance.now();
    expect((await ended).afterMs).toBeLessThan(1000);
    await client.dispose();
  });

  it("graphql-ws: a new password ends the streams of the user's sessions", async () => {
    const user = await userWithPat(t, "new-password", "Admin");
    const { client } = sessionSocket(user.session);
    const stream = client.iterate({
      query: EVENTS,
      variables: { afterId: await lastEventId(t) },
    }) as AsyncIterableIterator<Result<Ev>>;
    await createFlag(t, "before-password");
    expect((await stream.next()).value.data?.events.featureName).toBe("before-password");
    let changedAt = 0;
    const ended = endsAfter(stream, () => changedAt);
    const link = await t.rest("POST", "/api/admin/user-admin/reset-password", {
      id: "new-password@example.com",
    });
    expect(link.status).toBe(200);
    const token = new URL(link.body.resetPasswordUrl).searchParams.get("token");
    const reset = await fetch(`${t.url}/auth/reset/password`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token, password: "An0ther-Passw0rd!" }),
    });
    expect(reset.status).toBe(200);
    changedAt = performance.now();
    expect((await ended).afterMs).toBeLessThan(1000);
    await client.dispose();
  });

  it("graphql-ws: an API token's stream ends at its expiry, with nothing else happening", async () => {
    const created = await t.gql<{ createApiToken: { secret: string } }>(
      `mutation($at: DateTime) { createApiToken(input: { tokenName: "expiring-ws", type: "admin", expiresAt: $at }) { secret } }`,
      { at: new Date(Date.now() + 1000).toISOString() },
    );
    const client = wsClient(t.url, created.data!.createApiToken.secret);
    const stream = client.iterate({ query: EVENTS }) as AsyncIterableIterator<Result<Ev>>;
    expect(await drain(stream)).toEqual([]);
    await client.dispose();
  });
});

/** The web UI's socket: the session cookie on the upgrade, its CSRF token as a connection parameter. */
function sessionSocket(session: { cookie: string; csrf: string }) {
  const client = createClient({
    url: `${t.url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: class extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers: { cookie: session.cookie } });
      }
    },
    connectionParams: { csrfToken: session.csrf },
    retryAttempts: 0,
    lazy: true,
  });
  return { client };
}
