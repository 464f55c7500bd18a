import { defaultFieldResolver, type GraphQLObjectType } from "graphql";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { schema } from "../../src/schema.ts";
import { ADMIN_TOKEN, createListeningTestApp, type ListeningTestApp } from "../helpers/app.ts";
import { createFlag, createProject, lastEventId } from "../helpers/builders.ts";
import { createSqlCounter } from "../helpers/sql-counter.ts";
import { seedScopedAdminToken, wsClient } from "./live-helpers.ts";

const EVENTS = `subscription($filter: EventFilter, $afterId: Long) {
  events(filter: $filter, afterId: $afterId) { id: databaseId featureName project } }`;
type Delivery = { events: { id?: number; featureName: string; project?: string; type?: string } };

const sql = createSqlCounter();
let t: ListeningTestApp;
beforeAll(async () => {
  t = await createListeningTestApp({}, { wrapAdapter: sql.wrap });
  await createProject(t, "other");
});
afterAll(() => t?.close());

/** Counts executions of the `events` selection: each one resolves `featureName` once. */
function countExecutions(prefix: string) {
  const field = (schema.getType("Event") as GraphQLObjectType).getFields().featureName!;
  const original = field.resolve;
  const resolve = original ?? defaultFieldResolver;
  const counted = {
    executions: 0,
    restore: () => {
      field.resolve = original;
    },
  };
  field.resolve = (source, args, ctx, info) => {
    const value = resolve(source, args, ctx, info);
    if (typeof value === "string" && value.startsWith(prefix)) counted.executions++;
    return value;
  };
  return counted;
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

type Subscriber = ReturnType<typeof subscriber>;

/** A WebSocket subscriber that records the events it receives, and can wait for one. */
function subscriber(token: string, variables: Record<string, unknown>, query = EVENTS) {
  const client = wsClient(t.url, token);
  const results: Delivery["events"][] = [];
  const got: string[] = [];
  const errors: unknown[] = [];
  const waiting = new Map<string, () => void>();
  client.subscribe<Delivery>(
    { query, variables },
    {
      next: (result) => {
        const event = result.data?.events as Delivery["events"];
        results.push(event);
        got.push(event.featureName);
        waiting.get(event.featureName)?.();
      },
      error: (error) => errors.push(error),
      complete: () => {},
    },
  );
  const handle = {
    results,
    got,
    errors,
    received: (name: string) =>
      got.includes(name) ? Promise.resolve() : new Promise<void>((resolve) => waiting.set(name, resolve)),
    close: async () => client.dispose(),
  };
  open.push(handle);
  return handle;
}

describe("events subscription: shared execution", () => {
  it("executes the selection once per event for subscribers that select the same and may read the same", async () => {
    const scoped = await seedScopedAdminToken(t, "default:*.scoped-admin-secret-000000", ["default"]);
    const afterId = await lastEventId(t);
    const createdOnly = { afterId, filter: { types: ["feature-created"] } };
    const defaultOnly = { afterId, filter: { projects: ["default"] } };
    const withType = `subscription($afterId: Long) { events(afterId: $afterId) { featureName type } }`;
    const maybeProject = `subscription($afterId: Long, $withProject: Boolean = false) {
      events(afterId: $afterId) { featureName project @include(if: $withProject) } }`;
    const times = (n: number, make: () => Subscriber) => Array.from({ length: n }, make);
    const all = [
      // One result per event: same selection and visibility; filters and afterId only pick events.
      ...times(10, () => subscriber(ADMIN_TOKEN, createdOnly)),
      ...times(10, () => subscriber(ADMIN_TOKEN, defaultOnly)),
      // Each of these is one more result per event.
      ...times(5, () => subscriber(scoped, createdOnly)),
      ...times(5, () => subscriber(ADMIN_TOKEN, { afterId }, withType)),
      ...times(3, () => subscriber(ADMIN_TOKEN, { afterId }, maybeProject)),
      ...times(3, () => subscriber(ADMIN_TOKEN, { afterId, withProject: true }, maybeProject)),
    ];
    // Once a subscriber has the warm-up event (replayed or live), it listens live.
    await createFlag(t, "warm-up");
    await Promise.all(all.map((s) => s.received("warm-up")));

    const executions = countExecutions("shared-");
    // graphql-ws sends with a callback it awaits; a direct send has none.
    const frames = { direct: 0, viaGraphqlWs: 0 };
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (this: WebSocket, ...args: Parameters<WebSocket["send"]>) {
      if (String(args[0]).includes('"featureName":"shared-'))
        frames[args.length > 1 ? "viaGraphqlWs" : "direct"]++;
      return send.apply(this, args);
    } as WebSocket["send"];
    try {
      const { statements } = await sql.during(async () => {
        for (const name of ["shared-0", "shared-1", "shared-2"]) await createFlag(t, name);
        await Promise.all(all.map((s) => s.received("shared-2")));
      });
      // 3 events × 5 distinct results; one execution per subscriber would be 3 × 36.
      expect(executions.executions).toBe(15);
      // No statement per subscriber and event: none repeats once per subscriber.
      const repeats = new Map<string, number>();
      for (const statement of statements) repeats.set(statement, (repeats.get(statement) ?? 0) + 1);
      expect(Math.max(...repeats.values())).toBeLessThan(all.length);
    } finally {
      executions.restore();
      WebSocket.prototype.send = send;
    }
    // Every delivery of a shared result went straight to its socket.
    expect(frames).toEqual({ direct: 3 * all.length, viaGraphqlWs: 0 });
    for (const s of all) {
      expect(s.got).toEqual(["warm-up", "shared-0", "shared-1", "shared-2"]);
      expect(s.errors).toEqual([]);
    }
    const projectsOf = (s: Subscriber) => s.results.map((r) => r.project);
    expect(projectsOf(all[30]!)).toEqual([undefined, undefined, undefined, undefined]);
    expect(projectsOf(all[33]!)).toEqual(["default", "default", "default", "default"]);
    expect(all[25]!.results.map((r) => r.type)).toEqual(Array(4).fill("feature-created"));
  });

  it("still applies each subscriber's visibility and filter to shared results", async () => {
    const scoped = await seedScopedAdminToken(t, "other:*.scoped-admin-secret-111111", ["other"]);
    const from = await lastEventId(t);
    const admin = subscriber(ADMIN_TOKEN, { afterId: from });
    const otherOnly = subscriber(scoped, { afterId: from });
    await createFlag(t, "vis-default");
    await createFlag(t, "vis-other", { project: "other" });
    await Promise.all([admin.received("vis-other"), otherOnly.received("vis-other")]);
    expect(admin.got).toEqual(["vis-default", "vis-other"]);
    expect(otherOnly.got).toEqual(["vis-other"]);
  });

  it("hands out this node's own commits without reading them back, and reads the log when another id is in between", async () => {
    const from = await lastEventId(t);
    const live = subscriber(ADMIN_TOKEN, { afterId: from, filter: { projects: ["default"] } });
    await createFlag(t, "own-warm-up");
    await live.received("own-warm-up");
    const eventReads = (statements: string[]) =>
      statements.filter((s) => s.startsWith("SELECT") && s.includes('FROM "public"."Event"'));

    const own = await sql.during(async () => {
      await createFlag(t, "own-0");
      await live.received("own-0");
    });
    expect(eventReads(own.statements)).toEqual([]);

    // An event this node did not publish (another node's, say) sits between the feed and the next commit.
    // Direct write: every API call on this app publishes its events on this node's bus.
    await t.database.prisma.event.create({
      data: {
        type: "feature-updated",
        createdBy: "elsewhere",
        project: "default",
        featureName: "other-node",
      },
    });
    const mixed = await sql.during(async () => {
      await createFlag(t, "own-1");
      await live.received("own-1");
    });
    // One read of the log (or none, if the feed's periodic poll got there first); either way in id order.
    expect(eventReads(mixed.statements).length).toBeLessThanOrEqual(1);
    expect(live.got).toEqual(["own-warm-up", "own-0", "other-node", "own-1"]);
    expect(live.errors).toEqual([]);
  });
});
