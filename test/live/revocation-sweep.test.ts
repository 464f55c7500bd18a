import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createListeningTestApp, type ListeningTestApp } from "../helpers/app.ts";
import { createFlag, lastEventId } from "../helpers/builders.ts";
import { createSqlCounter } from "../helpers/sql-counter.ts";
import { type Result, wsClient } from "./live-helpers.ts";

/**
 * Issue 42, point 3: a node holds thousands of subscriptions, often opened with the same
 * credential (one token, many dashboards). Each sweep of the revocation watch (after an access
 * event, an access notice, or its 30 s backstop) reads a set of credentials once, not once per
 * subscription: 10,000 subscriptions of one token cost one read, not 10,000.
 */
const counter = createSqlCounter();
let t: ListeningTestApp;
beforeAll(async () => {
  t = await createListeningTestApp({}, { wrapAdapter: counter.wrap });
});
afterAll(() => t?.close());

type Ev = { events: { featureName: string | null } };
const EVENTS = `subscription($afterId: Long) { events(afterId: $afterId) { featureName } }`;
/** An API token read by its secret (resolveToken). */
const TOKEN_READ = /FROM "public"\."ApiToken" AS "t0" WHERE "t0"\."secretHash" = /;

describe("the revocation sweep", () => {
  it("reads a token once for all of its 40 subscriptions, and ends them all when it is deleted", async () => {
    const created = await t.gql<{ createApiToken: { secret: string; token: { id: number } } }>(
      `mutation { createApiToken(input: { tokenName: "many-dashboards", type: "admin" }) { secret token { id: databaseId } } }`,
    );
    const { secret, token } = created.data!.createApiToken;
    const sockets = Array.from({ length: 4 }, () => wsClient(t.url, secret));
    const variables = { afterId: await lastEventId(t) };
    const streams = sockets.flatMap((socket) =>
      Array.from(
        { length: 10 },
        () => socket.iterate({ query: EVENTS, variables }) as AsyncIterableIterator<Result<Ev>>,
      ),
    );
    await createFlag(t, "seen-by-all");
    for (const stream of streams) {
      expect((await stream.next()).value.data?.events.featureName).toBe("seen-by-all");
    }

    const { statements } = await counter.during(async () => {
      const deleted = await t.gql(`mutation($id: Int!) { deleteApiToken(id: $id) }`, { id: token.id });
      expect(deleted.errors).toBeUndefined();
      // Every subscription ends (after the deletion's own event, which it may still get).
      await Promise.all(
        streams.map(async (stream) => {
          for (let item = await stream.next(); !item.done; item = await stream.next()) {
            expect(item.value.data?.events.featureName).not.toBe("never");
          }
        }),
      );
    });
    // The mutation's caller and a sweep or two (a burst costs at most two): never one per subscription.
    expect(statements.filter((s) => TOKEN_READ.test(s)).length).toBeLessThanOrEqual(4);
    await Promise.all(sockets.map((s) => s.dispose()));
  });
});
