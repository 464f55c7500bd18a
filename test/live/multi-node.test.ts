import { createClient } from "graphql-ws";
import { Unleash, UnleashEvents } from "unleash-client";
import { afterAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createApp } from "../../src/app.ts";
import { bootstrap } from "../../src/bootstrap.ts";
import { loadConfig } from "../../src/config.ts";
import type { AppDeps } from "../../src/context.ts";
import { openPostgres } from "../../src/db/database.ts";
import { createEventBus } from "../../src/events/bus.ts";
import { listen, type RunningServer } from "../../src/http-server.ts";
import { createLogger } from "../../src/shared/logger.ts";
import { ADMIN_TOKEN, apiClient } from "../helpers/app.ts";
import { lastEventId } from "../helpers/builders.ts";
import { type Result, take, wsClient } from "./live-helpers.ts";
import { serverStorage } from "./processes.ts";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

type Node = { deps: AppDeps; server: RunningServer; close(): Promise<void> };

/** One node: its own connection pool, its own bus, its own HTTP/WebSocket server; shared database. */
async function startNode(databaseUrl: string, redisUrl?: string): Promise<Node> {
  const database = openPostgres(databaseUrl);
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    INIT_ADMIN_API_TOKENS: ADMIN_TOKEN,
    INIT_ADMIN_PASSWORD: "Admin-Password-1",
  });
  const logger = createLogger("silent");
  await bootstrap(database.prisma, config, logger);
  const bus = await createEventBus({ redisUrl, postgresUrl: databaseUrl }, logger);
  const deps: AppDeps = { config, db: database.prisma, bus, logger, now: () => new Date() };
  const app = createApp(deps);
  const server = await listen(app, "127.0.0.1", 0);
  return {
    deps,
    server,
    async close() {
      await server.close(0);
      await app.close();
      await bus.close();
      await database.close();
    },
  };
}

/** GraphQL and REST over HTTP to a node, as its admin token. */
const api = (node: Node) => apiClient(fetch, node.server.url);

/** A GraphQL operation on a node that must succeed; returns its data. */
async function gqlOn(node: Node, query: string, variables?: Record<string, unknown>) {
  const res = await api(node).gql<Record<string, any>>(query, variables);
  expect(res.errors).toBeUndefined();
  return res.data as Record<string, any>;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Two nodes on a new database of their own (closed and dropped after the file). */
async function twoNodes(redisUrl?: string): Promise<[Node, Node]> {
  const storage = await serverStorage();
  cleanups.push(storage.drop);
  const first = await startNode(storage.url as string, redisUrl);
  const second = await startNode(storage.url as string, redisUrl);
  cleanups.push(first.close, second.close);
  return [first, second];
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("several nodes on one PostgreSQL", () => {
  for (const transport of ["postgres", "redis"] as const) {
    it(`delivers an event committed on one node to a subscriber of the other (${transport})`, async () => {
      const [writer, reader] = await twoNodes(transport === "redis" ? REDIS_URL : undefined);

      // The transport itself: a notice published on one node is heard on the other.
      const heard = new Promise<bigint>((resolve) => {
        const stop = reader.deps.bus.listen((id) => {
          if (id === 424242n) {
            stop();
            resolve(id);
          }
        });
      });
      writer.deps.bus.publish({ id: 424242n, type: "feature-created" } as Parameters<
        typeof writer.deps.bus.publish
      >[0]);
      expect(await heard).toBe(424242n);

      // A node does not hear its own notice back: its listeners were told once, at publish.
      // The reader's later notice reaches the writer after the writer's own would have.
      const writerHeard: bigint[] = [];
      const stopWriter = writer.deps.bus.listen((id) => writerHeard.push(id));
      const heardOn = (node: Node, wanted: bigint) =>
        new Promise<void>((resolve) => {
          const stop = node.deps.bus.listen((id) => {
            if (id !== wanted) return;
            stop();
            resolve();
          });
        });
      const readerHeardOwn = heardOn(reader, 424250n);
      writer.deps.bus.publish({ id: 424250n, type: "feature-updated" } as Parameters<
        typeof writer.deps.bus.publish
      >[0]);
      await readerHeardOwn;
      const writerHeardReader = heardOn(writer, 424251n);
      reader.deps.bus.publish({ id: 424251n, type: "feature-updated" } as Parameters<
        typeof reader.deps.bus.publish
      >[0]);
      await writerHeardReader;
      stopWriter();
      expect(writerHeard).toEqual([424250n, 424251n]);

      // A notice says whether API tokens changed, so a node forgets its remembered tokens only then.
      const marks = new Map<bigint, boolean>();
      const bothHeard = new Promise<void>((resolve) => {
        const stop = reader.deps.bus.listen((id, _event, apiTokensChanged) => {
          if (id === 424243n || id === 424244n) marks.set(id, apiTokensChanged);
          if (marks.size === 2) {
            stop();
            resolve();
          }
        });
      });
      const publish = (id: bigint, type: string) =>
        writer.deps.bus.publish({ id, type } as Parameters<typeof writer.deps.bus.publish>[0]);
      publish(424243n, "feature-updated");
      await new Promise<void>((resolve) => setImmediate(resolve)); // its own NOTIFY: a later tick
      publish(424244n, "api-token-deleted");
      await bothHeard;
      expect(Object.fromEntries(marks)).toEqual({ 424243: false, 424244: true });

      // Through the API: a token remembered by the reader is refused there as soon as the writer
      // deletes it.
      const created = (
        await api(writer).rest("POST", "/api/admin/api-tokens", { tokenName: "cross-node", type: "admin" })
      ).body as { id: number; secret: string };
      const uiConfig = () => api(reader).rest("GET", "/api/admin/ui-config", undefined, created.secret);
      expect((await uiConfig()).status).toBe(200);
      const deletedHeard = new Promise<void>((resolve) => {
        const stop = reader.deps.bus.listen((_id, _event, apiTokensChanged) => {
          if (!apiTokensChanged) return;
          stop();
          resolve();
        });
      });
      const deleted = await api(writer).rest("DELETE", `/api/admin/api-tokens/${created.id}`);
      expect(deleted.status).toBe(200);
      await deletedHeard;
      expect((await uiConfig()).status).toBe(401);

      // End to end: a write through one node's API reaches a live subscriber on the other.
      type Changed = { featureChanged: { name: string; project: string } | null };
      const client = wsClient(reader.server.url);
      const stream = client.iterate<Changed>({
        query: `subscription { featureChanged(project: "default", feature: "cross-node") { name project } }`,
      }) as AsyncIterableIterator<Result<Changed>>;
      const got = await take(stream, 2, async (_r, index) => {
        if (index > 0) return;
        await gqlOn(
          writer,
          `mutation { createFeature(project: "default", input: { name: "cross-node" }) { name } }`,
        );
      });
      expect(got.map((r) => r.data?.featureChanged)).toEqual([
        null,
        { name: "cross-node", project: "default" },
      ]);
      await client.dispose();
    });
  }

  it("notices published while a NOTIFY is on its way share the next one, which carries the highest id", async () => {
    const [writer, reader] = await twoNodes();
    const heard: bigint[] = [];
    const last = new Promise<void>((resolve) => {
      reader.deps.bus.listen((id) => {
        heard.push(id);
        if (id === 500_050n) resolve();
      });
    });
    // Fifty writes committing one after another, each in its own microtask, while the first
    // notice's NOTIFY is on its way: its answer cannot be read before they are all published
    // (as under load, when the answer waits behind other work). One NOTIFY per write would be
    // fifty; waiting for the answer on a tick of the event loop instead made the count depend
    // on how fast PostgreSQL answered.
    for (let id = 500_001n; id <= 500_050n; id++) {
      writer.deps.bus.publish({ id, type: "feature-updated" } as Parameters<
        typeof writer.deps.bus.publish
      >[0]);
      await Promise.resolve();
    }
    await last;
    expect(heard).toEqual([500_001n, 500_050n]);
  });

  it("an SDK streaming from one node gets a change made through the other", async () => {
    const [writer, reader] = await twoNodes();
    const gql = (query: string) => gqlOn(writer, query);
    const secret = (
      await gql(
        `mutation { createApiToken(input: { tokenName: "sdk", type: "client", environment: "development" }) { secret } }`,
      )
    ).createApiToken.secret as string;
    await gql(`mutation { createFeature(project: "default", input: { name: "streamed" }) { name } }`);
    const sdk = new Unleash({
      url: `${reader.server.url}/api/`,
      appName: "cross-node",
      customHeaders: { Authorization: secret },
      refreshInterval: 600_000,
      disableMetrics: true,
      experimentalMode: { type: "streaming" },
    });
    sdk.on(UnleashEvents.Error, () => undefined);
    cleanups.push(async () => sdk.destroy());
    await new Promise((resolve) => sdk.once(UnleashEvents.Synchronized, resolve));
    expect(sdk.isEnabled("streamed")).toBe(false);
    const changed = new Promise<void>((resolve) => {
      const check = () => {
        if (sdk.isEnabled("streamed")) resolve();
      };
      sdk.on(UnleashEvents.Changed, check);
    });
    await gql(
      `mutation { enableFeatureEnvironment(project: "default", feature: "streamed", environment: "development") { name } }`,
    );
    await changed;
  });

  it("a token deleted through one node ends its subscription on the other", async () => {
    const [writer, reader] = await twoNodes();
    const gql = (query: string, variables?: Record<string, unknown>) => gqlOn(writer, query, variables);
    const created = (
      await gql(
        `mutation { createApiToken(input: { tokenName: "watcher", type: "admin" }) { secret token { id: databaseId } } }`,
      )
    ).createApiToken;
    const client = wsClient(reader.server.url, created.secret);
    const stream = client.iterate({
      query: `subscription { featureChanged(project: "default", feature: "watched") { name } }`,
    }) as AsyncIterableIterator<Result<unknown>>;
    expect((await stream.next()).done).toBe(false);
    await gql(`mutation($id: Int!) { deleteApiToken(id: $id) }`, { id: created.token.id });
    for (;;) if ((await stream.next()).done) break;
    await client.dispose();
  });

  it("maintenance mode turned on through one node refuses writes on the other (remembered, then forgotten on the notice)", async () => {
    const [first, second] = await twoNodes();
    const gql = (node: Node, query: string) => api(node).gql(query);
    const create = (name: string) =>
      `mutation { createFeature(project: "default", input: { name: "${name}" }) { name } }`;
    // The second node reads maintenance mode (off) and remembers it.
    expect((await gql(second, create("before-maintenance"))).errors).toBeUndefined();
    expect((await gql(first, "mutation { setMaintenanceMode(enabled: true) }")).errors).toBeUndefined();
    let attempt = 0;
    await expect
      .poll(
        async () =>
          (await gql(second, create(`during-maintenance-${attempt++}`))).errors?.[0]?.extensions?.code,
      )
      .toBe("MAINTENANCE");
    expect((await gql(first, "mutation { setMaintenanceMode(enabled: false) }")).errors).toBeUndefined();
    await expect.poll(async () => (await gql(second, create("after-maintenance"))).errors).toBeUndefined();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("access changes reach the streams of every node", () => {
  for (const transport of ["postgres", "redis"] as const) {
    it(`a demotion and a logout on one node end the other node's streams within a second (${transport})`, async () => {
      const [writer, reader] = await twoNodes(transport === "redis" ? REDIS_URL : undefined);
      const password = "Str0ng-Passw0rd!";
      const { createUser } = await gqlOn(
        writer,
        `mutation { createUser(input: { username: "roaming", rootRole: "Admin", password: "${password}" }) { id: databaseId } }`,
      );
      const login = await fetch(`${writer.server.url}/auth/simple/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "roaming", password }),
      });
      const pairs = login.headers.getSetCookie().map((c) => c.split(";")[0] as string);
      const cookie = pairs.join("; ");
      const csrf = pairs.find((p) => p.startsWith("vexil-csrf="))?.slice("vexil-csrf=".length) ?? "";
      const client = createClient({
        url: `${reader.server.url.replace(/^http/, "ws")}/graphql`,
        webSocketImpl: class extends WebSocket {
          constructor(address: string, protocols?: string | string[]) {
            super(address, protocols, { headers: { cookie } });
          }
        },
        connectionParams: { csrfToken: csrf },
        retryAttempts: 0,
        lazy: true,
      });
      const EVENTS = `subscription($afterId: Long) { events(afterId: $afterId) { type } }`;
      const ended = async (stream: AsyncIterator<unknown>, since: () => number) => {
        while (!(await stream.next()).done);
        return performance.now() - since();
      };
      const subscribed = async () => {
        const variables = { afterId: await lastEventId(api(writer)) };
        const stream = client.iterate({ query: EVENTS, variables }) as AsyncIterableIterator<Result<unknown>>;
        const first = stream.next();
        await gqlOn(
          writer,
          `mutation { createFeature(project: "default", input: { name: "w-${Date.now()}" }) { name } }`,
        );
        expect((await first).done).toBe(false);
        return stream;
      };

      // Demoted on the writer: the reader's stream ends.
      let at = 0;
      const demotedEnd = ended(await subscribed(), () => at);
      await gqlOn(
        writer,
        `mutation($id: Int!) { updateUser(id: $id, input: { rootRole: "Editor" }) { id } }`,
        {
          id: createUser.id,
        },
      );
      at = performance.now();
      expect(await demotedEnd).toBeLessThan(1000);

      // Logged out on the writer (no event: an access notice): the reader's stream ends.
      const loggedOutEnd = ended(await subscribed(), () => at);
      const out = await fetch(`${writer.server.url}/auth/logout`, {
        method: "POST",
        headers: { cookie, "x-csrf-token": csrf },
      });
      expect(out.status).toBe(200);
      at = performance.now();
      expect(await loggedOutEnd).toBeLessThan(1000);
      await client.dispose();
    });
  }
});
