import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { listen, type RunningServer } from "../../src/http-server.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let server: RunningServer;
const clients: ReturnType<typeof createClient>[] = [];
beforeAll(async () => {
  t = await createTestApp();
  server = await listen(t.app, "127.0.0.1", 0);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await server.close(0);
  await t.close();
});

function connect(authorization: string | undefined) {
  const closed = new Promise<number>((resolve) => {
    const client = createClient({
      url: `${server.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      lazy: false,
      retryAttempts: 0,
      connectionParams: authorization ? { Authorization: authorization } : {},
      on: { closed: (event) => resolve((event as { code: number }).code) },
      onNonLazyError: () => {},
    });
    clients.push(client);
  });
  return { closed, client: clients.at(-1) as ReturnType<typeof createClient> };
}
describe("graphql-ws over a real socket", () => {
  it("refuses a connection with a bad or missing token at connect (4403)", async () => {
    expect(await connect("*:*.not-a-real-token").closed).toBe(4403);
    expect(await connect(undefined).closed).toBe(4403);
  });

  it("accepts a valid token and runs operations with its principal", async () => {
    const { client } = connect(`Bearer ${ADMIN_TOKEN}`);
    const result = await new Promise((resolve, reject) => {
      client.subscribe(
        { query: "{ viewer { kind name } }" },
        { next: resolve, error: reject, complete: () => {} },
      );
    });
    expect(result).toEqual({ data: { viewer: { kind: "admin-token", name: "admin-token" } } });
    await client.dispose();
  });
});
