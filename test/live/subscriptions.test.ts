import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvent } from "../../src/events/record.ts";
import { directNextTo } from "../../src/http-server.ts";
import { followEvents } from "../../src/modules/live/follow.live.ts";
import { runWrite } from "../../src/shared/write.ts";
import {
  createListeningTestApp,
  flagCreatedEvent,
  type ListeningTestApp,
  systemWriteContext,
} from "../helpers/app.ts";
import { apiToken, createFlag, createProject, lastEventId, userWithPat } from "../helpers/builders.ts";
import { type Result, sse, take, wsClient } from "./live-helpers.ts";

type Ev = { events: { id: number; type: string; featureName: string | null; project: string | null } };
const EVENTS = `subscription($filter: EventFilter, $afterId: Long) {
  events(filter: $filter, afterId: $afterId) { id: databaseId type featureName project } }`;

let t: ListeningTestApp;
beforeAll(async () => {
  t = await createListeningTestApp();
  await createProject(t, "other");
});
afterAll(() => t?.close());

describe("events subscription", () => {
  it("delivers live events over WebSocket, filtered by project, feature and type", async () => {
    const from = await lastEventId(t);
    const client = wsClient(t.url);
    const stream = client.iterate<Ev["events"]>({
      query: EVENTS,
      variables: { afterId: from, filter: { projects: ["other"], types: ["feature-created"] } },
    });
    await createFlag(t, "ws-default-1");
    await createFlag(t, "ws-other-1", { project: "other" });
    await createFlag(t, "ws-other-2", { project: "other" });
    const got = await take(stream as AsyncIterableIterator<Result<Ev>>, 2);
    expect(got.map((r) => r.data?.events.featureName)).toEqual(["ws-other-1", "ws-other-2"]);
    expect(got.every((r) => r.data?.events.project === "other")).toBe(true);
    await client.dispose();
  });

  it("replays stored events after afterId, then goes live with no gap and no duplicate while writing", async () => {
    const from = await lastEventId(t);
    for (let i = 0; i < 20; i++) await createFlag(t, `replay-${i}`);
    const client = wsClient(t.url);
    const stream = client.iterate<Ev>({ query: EVENTS, variables: { afterId: from } });
    let written = 0;
    // Each received event triggers another write, so writes land during the replay and after it.
    const got = await take(stream as AsyncIterableIterator<Result<Ev>>, 40, async () => {
      if (written < 20) await createFlag(t, `during-${written++}`);
    });
    const ids = got.map((r) => r.data?.events.id as number);
    expect(new Set(ids).size).toBe(40);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const stored = await t.database.prisma.event.findMany({
      where: { id: { gt: from } },
      orderBy: { id: "asc" },
    });
    expect(ids).toEqual(stored.slice(0, 40).map((e) => Number(e.id)));
    expect(got.map((r) => r.data?.events.featureName)).toContain("during-19");
    await client.dispose();
  });

  it("hides project-less events from a non-admin and refuses SDK tokens", async () => {
    const { token: secret } = await userWithPat(t, "viewer-live", "Viewer");
    const from = await lastEventId(t);
    await t.rest("POST", "/api/admin/addons", {
      provider: "webhook",
      parameters: { url: "http://127.0.0.1:9/x" },
      events: ["feature-created"],
    });
    await createFlag(t, "scope-other", { project: "other" });
    const viewer = wsClient(t.url, secret);
    const got = await take(
      viewer.iterate<Ev>({ query: EVENTS, variables: { afterId: from } }) as AsyncIterableIterator<
        Result<Ev>
      >,
      1,
    );
    expect(got.map((r) => r.data?.events.featureName)).toEqual(["scope-other"]);
    await viewer.dispose();
    // SDK tokens may run nothing on /graphql (D-13): the socket is refused at connection_init.
    const sdk = await apiToken(t, "client", "development", ["other"]);
    const client = wsClient(t.url, sdk);
    const refused = client.iterate({ query: EVENTS, variables: { afterId: from } });
    await expect(refused.next()).rejects.toMatchObject({ code: 4403 });
    await client.dispose();
  });

  it("refuses a WebSocket without a valid token", async () => {
    const client = wsClient(t.url, "*:*.not-a-token");
    const stream = client.iterate({ query: EVENTS, variables: {} });
    await expect(stream.next()).rejects.toMatchObject({ code: 4403 });
    await client.dispose();
  });

  it("never delivers an event of a rolled-back transaction", async () => {
    const from = await lastEventId(t);
    // Direct write: no API call records an event and then rolls its transaction back.
    await expect(
      runWrite(systemWriteContext(t), async (w) => {
        await recordEvent(w, flagCreatedEvent("ghost"));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    await createFlag(t, "after-ghost");
    const client = wsClient(t.url);
    const got = await take(
      client.iterate<Ev>({ query: EVENTS, variables: { afterId: from } }) as AsyncIterableIterator<
        Result<Ev>
      >,
      1,
    );
    expect(got[0]?.data?.events.featureName).toBe("after-ghost");
    await client.dispose();
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "holds a committed event back until an older transaction with a lower id has ended",
    async () => {
      const feed = t.deps.services.feed;
      await feed.ready();
      const from = BigInt(await lastEventId(t));
      const stream = followEvents(t.deps.db, feed, { where: {}, accept: () => true, afterId: from });
      const first = stream.next();
      let release = () => {};
      let recorded = () => {};
      const olderRecorded = new Promise<void>((resolve) => {
        recorded = resolve;
      });
      // Direct write: an API call's transaction cannot be held open while a newer one commits.
      const older = runWrite(systemWriteContext(t), async (w) => {
        await recordEvent(w, flagCreatedEvent("older-tx"));
        recorded();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      });
      await olderRecorded;
      await createFlag(t, "newer-tx"); // higher id, committed first
      while (!feed.holdingBack) await new Promise((resolve) => setImmediate(resolve));
      release();
      await older;
      const firstEvent = (await first).value;
      const second = await stream.next();
      expect([firstEvent?.featureName, second.value?.featureName]).toEqual(["older-tx", "newer-tx"]);
      expect((firstEvent?.id ?? 0n) < (second.value?.id ?? 0n)).toBe(true);
      await stream.return();
    },
  );

  it("works over SSE (Accept: text/event-stream)", async () => {
    const from = await lastEventId(t);
    const stream = sse<Ev>(t.app, EVENTS, { afterId: from, filter: { features: ["sse-flag"] } });
    await createFlag(t, "sse-flag");
    const first = await stream.next();
    expect(first.value).toMatchObject({
      data: { events: { type: "feature-created", featureName: "sse-flag" } },
    });
    await stream.return(undefined);
  });

  it("ends a subscriber that falls too far behind without slowing writers or other subscribers", async () => {
    const feed = t.deps.services.feed;
    await feed.ready();
    const from = BigInt(await lastEventId(t));
    const everything = { where: {}, accept: () => true };
    const slow = followEvents(t.deps.db, feed, { ...everything, afterId: from, maxPending: 2 });
    const healthy = followEvents(t.deps.db, feed, { ...everything, afterId: from });
    // Both go live before the writes (nothing stored after `from` yet).
    const firstHealthy = healthy.next();
    const firstSlow = slow.next();
    for (let i = 0; i < 6; i++) await createFlag(t, `slow-${i}`);
    expect((await firstSlow).value?.featureName).toBe("slow-0");
    const rest = await take(healthy, 5);
    expect([(await firstHealthy).value?.featureName, ...rest.map((e) => e.featureName)]).toEqual(
      [0, 1, 2, 3, 4, 5].map((i) => `slow-${i}`),
    );
    const drained: string[] = [];
    const failure = await (async () => {
      try {
        for await (const e of slow) drained.push(e.featureName as string);
      } catch (error) {
        return error as Error;
      }
    })();
    expect(drained.length).toBeLessThan(5);
    expect(failure?.message).toMatch(/Subscriber too slow.*Resubscribe with afterId: \d+/);
  });
});

describe("direct sends (graphql-ws over WebSocket)", () => {
  it("hands live events to a direct sender while waiting, and returns the ones it declines", async () => {
    const feed = t.deps.services.feed;
    await feed.ready();
    const from = BigInt(await lastEventId(t));
    const stream = followEvents(t.deps.db, feed, { where: {}, accept: () => true, afterId: from });
    const pushed: string[] = [];
    let taking = true;
    let tookTwo = () => {};
    const twoTaken = new Promise<void>((resolve) => {
      tookTwo = resolve;
    });
    const push = (event: { featureName: string | null }) => {
      if (!taking) return false;
      pushed.push(event.featureName as string);
      if (pushed.length === 2) tookTwo();
      return true;
    };
    let returned: string | null | undefined;
    const waiting = stream.nextPushing(push).then((step) => {
      returned = step.value?.featureName;
    });
    await createFlag(t, "push-0");
    await createFlag(t, "push-1");
    await twoTaken;
    expect(pushed).toEqual(["push-0", "push-1"]);
    expect(returned).toBeUndefined();
    taking = false;
    await createFlag(t, "push-2");
    await waiting;
    expect(returned).toBe("push-2");
    const ended = stream.nextPushing(push);
    await stream.return();
    expect(await ended).toEqual({ value: undefined, done: true });
  });

  it("treats a direct sender that throws as declining: the event is returned, the feed goes on", async () => {
    const feed = t.deps.services.feed;
    await feed.ready();
    const from = BigInt(await lastEventId(t));
    const everything = { where: {}, accept: () => true, afterId: from };
    const broken = followEvents(t.deps.db, feed, everything);
    const other = followEvents(t.deps.db, feed, everything);
    const fromBroken = broken.nextPushing(() => {
      throw new Error("socket exploded");
    });
    const fromOther = other.next();
    await createFlag(t, "push-throws");
    expect((await fromBroken).value?.featureName).toBe("push-throws");
    expect((await fromOther).value?.featureName).toBe("push-throws");
    await Promise.all([broken.return(), other.return()]);
  });

  it("builds graphql-ws next messages around the serialised payload, and declines a closed or backlogged socket", () => {
    const frames: string[] = [];
    const socket = {
      OPEN: 1 as const,
      readyState: 1 as 0 | 1 | 2 | 3,
      bufferedAmount: 0,
      send: (f: string) => frames.push(f),
    };
    const send = directNextTo(socket as never, "op-1");
    expect(send('{"data":{"events":{"id":1}}}')).toBe(true);
    expect(JSON.parse(frames[0] as string)).toEqual({
      id: "op-1",
      type: "next",
      payload: { data: { events: { id: 1 } } },
    });
    socket.bufferedAmount = 1 << 20;
    expect(send("{}")).toBe(false);
    socket.bufferedAmount = 0;
    socket.readyState = 3;
    expect(send("{}")).toBe(false);
    expect(frames).toHaveLength(1);
  });
});

describe("featureChanged subscription", () => {
  type Changed = { featureChanged: { name: string; description: string | null; project: string } | null };
  it("sends the flag as it is, then again after each committed change", async () => {
    const client = wsClient(t.url);
    const stream = client.iterate<Changed>({
      query: `subscription { featureChanged(project: "default", feature: "live-flag") { name description project } }`,
    }) as AsyncIterableIterator<Result<Changed>>;
    const got = await take(stream, 3, async (_r, index) => {
      if (index === 0) await createFlag(t, "live-flag");
      if (index === 1) {
        const res = await t.rest("PUT", "/api/admin/projects/default/features/live-flag", {
          description: "v2",
        });
        expect(res.status).toBe(200);
      }
    });
    expect(got.map((r) => r.data?.featureChanged)).toEqual([
      null,
      { name: "live-flag", description: null, project: "default" },
      { name: "live-flag", description: "v2", project: "default" },
    ]);
    await client.dispose();
  });

  it("refuses an SDK token, whatever projects it covers (D-13)", async () => {
    const token = await apiToken(t, "client", "development", ["other"]);
    const client = wsClient(t.url, token);
    const stream = client.iterate({
      query: `subscription { featureChanged(project: "default", feature: "x") { name } }`,
    });
    await expect(stream.next()).rejects.toMatchObject({ code: 4403 });
    await client.dispose();
  });
});
