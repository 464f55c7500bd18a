import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { apiClient } from "../helpers/app.ts";
import { emptyPostgresDatabase } from "../helpers/postgres-url.ts";
import { runServerToExit, type ServerProcess, startServerProcess } from "../helpers/server-process.ts";

const TOKEN = "*:*.process-test-secret";
let dataDir: string;
let postgres: Awaited<ReturnType<typeof emptyPostgresDatabase>>;
let server: ServerProcess;
let env: Record<string, string>;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "vexil-proc-"));
  postgres = await emptyPostgresDatabase();
  env = {
    INIT_ADMIN_API_TOKENS: TOKEN,
    INIT_ADMIN_PASSWORD: "Process-Test-Password-1",
    VEXIL_DATA_DIR: join(dataDir, "data"),
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
  };
  server = await startServerProcess(env);
}, 120_000);

afterAll(async () => {
  await server?.stop("SIGKILL");
  await postgres?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

/** GraphQL to the current server process (it changes on a restart) as its admin token. */
const gql = <T = Record<string, any>>(query: string, variables?: Record<string, unknown>) =>
  apiClient(fetch, server.url, TOKEN).gql<T>(query, variables);

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const CREATE = `mutation($n: String!) { createFeature(project: "default", input: { name: $n }) { name } }`;

/**
 * A subscription is registered asynchronously on the server, so create flags until the stream
 * yields one: bounded by the number of round trips, never by sleeping.
 */
async function createUntilDelivered(prefix: string, delivered: Promise<unknown>) {
  let done = false;
  void delivered.then(() => {
    done = true;
  });
  for (let i = 0; i < 200 && !done; i++) {
    const res = await gql(CREATE, { n: `${prefix}-${i}` });
    expect(res.errors).toBeUndefined();
  }
  return delivered;
}

describe("the server process (npm start)", () => {
  it("answers the probes", async () => {
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    const ready = await fetch(`${server.url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ health: "GOOD" });
  });

  it("runs graphql's ES modules, one copy (D-07: its CommonJS files cost a getter per export use)", async () => {
    // The bundles are minified (no path comments): their source maps list what they hold.
    const dist = join(import.meta.dirname, "../../dist");
    const maps = (await readdir(dist)).filter(
      (name) => name.endsWith(".js.map") && !name.startsWith("graphiql"),
    );
    const sources = (
      await Promise.all(
        maps.map(async (name) => JSON.parse(await readFile(join(dist, name), "utf8")).sources as string[]),
      )
    ).flat();
    expect(sources.some((source) => source.endsWith("node_modules/graphql/index.mjs"))).toBe(true);
    expect(sources.filter((source) => /node_modules\/graphql\/.*\.js$/.test(source))).toEqual([]);
  });

  it("serves GraphiQL to browsers", async () => {
    const res = await fetch(`${server.url}/graphql`, { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("GraphiQL");
  });

  it("delivers a committed event to a graphql-ws subscriber over a real WebSocket", async () => {
    const client = createClient({
      url: `${server.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: TOKEN },
      retryAttempts: 0,
    });
    const stream = client.iterate<{ events: { type: string; featureName: string; project: string } }>({
      query: `subscription { events(filter: { types: ["feature-created"], projects: ["default"] }) { type featureName project } }`,
    });
    const first = stream.next();
    const result = (await createUntilDelivered("ws-flag", first)) as IteratorResult<{ data: any }>;
    expect(result.value.data.events).toMatchObject({ type: "feature-created", project: "default" });
    expect(result.value.data.events.featureName).toMatch(/^ws-flag-\d+$/);
    await stream.return?.();
    await client.dispose();
  });

  it("records each event with what the modules add to it (src/event-hooks.ts): the flag's history", async () => {
    expect((await gql(CREATE, { n: "with-history" })).errors).toBeUndefined();
    const past = await gql(
      `query($at: DateTime!) { featureAt(name: "with-history", at: $at) { exact state { name } } }`,
      {
        at: new Date().toISOString(),
      },
    );
    expect(past.data?.featureAt).toEqual({ exact: true, state: { name: "with-history" } });
  });

  it("refuses a WebSocket connection with a bad token", async () => {
    const client = createClient({
      url: `${server.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: "*:*.wrong" },
      retryAttempts: 0,
    });
    const closed = new Promise<{ code: number }>((resolve) =>
      client.on("closed", (e) => resolve(e as { code: number })),
    );
    const stream = client.iterate({ query: "subscription { events { id } }" });
    await expect(stream.next()).rejects.toBeDefined();
    expect((await closed).code).toBe(4403);
    await client.dispose();
  });

  it("delivers events over SSE", async () => {
    const controller = new AbortController();
    const res = await fetch(`${server.url}/graphql`, {
      method: "POST",
      signal: controller.signal,
      headers: { "content-type": "application/json", accept: "text/event-stream", authorization: TOKEN },
      body: JSON.stringify({
        query: `subscription { events(filter: { types: ["feature-created"] }) { type featureName } }`,
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const firstEvent = (async () => {
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended");
        buffer += decoder.decode(value, { stream: true });
        const data = /data: (\{.*"feature-created".*\})/.exec(buffer);
        if (data?.[1]) return JSON.parse(data[1]);
      }
    })();
    const payload = await createUntilDelivered("sse-flag", firstEvent);
    expect(payload).toMatchObject({ data: { events: { type: "feature-created" } } });
    controller.abort();
  });

  it("a public token's report holding NUL is refused, and the database keeps reading and writing", async () => {
    const api = apiClient(fetch, server.url, TOKEN);
    const token = async (type: string) =>
      (
        await api.rest("POST", "/api/admin/api-tokens", {
          tokenName: `nul-${type}`,
          type,
          environment: "development",
          projects: ["*"],
        })
      ).body.secret as string;
    const [frontend, client] = [await token("frontend"), await token("client")];
    const bucket = {
      start: new Date().toISOString(),
      stop: new Date().toISOString(),
      toggles: { "a\u0000b": { yes: 1, no: 0 } },
    };
    const hostile: [string, string, unknown][] = [
      [frontend, "/api/frontend/client/metrics", { appName: "we\u0000b", instanceId: "i", bucket }],
      [frontend, "/api/frontend/client/register", { appName: "we\u0000b", instanceId: "i" }],
      [client, "/api/client/register", { appName: "we\u0000b", instanceId: "i", strategies: [] }],
      [client, "/api/client/metrics", { appName: "app", instanceId: "i", bucket }],
      [
        client,
        "/api/client/metrics/bulk",
        { applications: [], metrics: [{ featureName: "a\u0000", appName: "x", environment: "development" }] },
      ],
    ];
    for (const [secret, path, body] of hostile) {
      expect((await api.rest("POST", path, body, secret)).status, path).toBe(400);
    }
    expect((await fetch(`${server.url}/ready`)).status).toBe(200);
    expect((await gql(CREATE, { n: "after-nul" })).errors).toBeUndefined();
  });

  it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
    "a second server on the same data folder stops at start with one line naming the folder and the holder",
    async () => {
      const second = await runServerToExit({ ...env, DATABASE_URL: "" });
      expect(second.code).toBe(1);
      const refusal = second.lines.map((l) => JSON.parse(l)).find((l) => l.level === "error");
      expect(refusal.msg).toContain(join(dataDir, "data"));
      expect(refusal.msg).toContain(`in use by process ${server.child.pid}`);
      // The first one is untouched and still writes.
      expect((await gql(CREATE, { n: "after-second-start" })).errors).toBeUndefined();
    },
    60_000,
  );

  it("a SIGTERM during the start stops it: exit 0, the stop logged, no error", async () => {
    const port = await freePort();
    const { code, lines } = await runServerToExit(
      // On PGlite whichever database the suite runs on: its start is the long one.
      { ...env, DATABASE_URL: "", PORT: String(port), VEXIL_DATA_DIR: join(dataDir, "stopped-during-start") },
      async (child) => {
        // The port answers /health once bound, while the database still opens (a new folder: a
        // copy of the template, then PGlite's start, a second or more).
        await expect
          .poll(
            () =>
              fetch(`http://127.0.0.1:${port}/health`).then(
                (r) => r.status,
                () => 0,
              ),
            { interval: 10 },
          )
          .toBe(200);
        child.kill("SIGTERM");
      },
    );
    const entries = lines.map((l) => JSON.parse(l) as { level: string; msg: string });
    expect(entries.filter((e) => e.level === "error")).toEqual([]);
    expect(entries.map((e) => e.msg)).toContain("stopping during the start");
    expect(entries.map((e) => e.msg)).not.toContain("Vexil listening");
    expect(code).toBe(0);
  }, 60_000);

  it("stops cleanly on SIGTERM and keeps its data across a restart", async () => {
    expect((await gql(CREATE, { n: "survives-restart" })).errors).toBeUndefined();
    const code = await server.stop("SIGTERM");
    expect(code).toBe(0);
    expect(server.output.some((l) => l.includes('"msg":"stopped"'))).toBe(true);
    server = await startServerProcess(env);
    const res = await gql(`{ feature(name: "survives-restart") { name project environments { name } } }`);
    expect(res.data?.feature).toEqual({
      name: "survives-restart",
      project: "default",
      environments: [{ name: "development" }, { name: "production" }],
    });
    // the second start applied no migration and bootstrapped nothing again
    expect(server.output.some((l) => l.includes("database migrated"))).toBe(false);
    expect((await gql(`{ projects { databaseId } }`)).data?.projects).toEqual([{ databaseId: "default" }]);
  }, 120_000);
});
