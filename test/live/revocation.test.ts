import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createListeningTestApp, type ListeningTestApp } from "../helpers/app.ts";
import { createFlag, lastEventId, userWithPat } from "../helpers/builders.ts";
import { type Result, sse, wsClient } from "./live-helpers.ts";

/** Subscriptions end when their credential is deleted or revoked (graphql-ws and SSE). */
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
