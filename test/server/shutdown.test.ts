import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { emptyPostgresDatabase } from "../helpers/postgres-url.ts";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.ts";

const TOKEN = "*:*.shutdown-test-secret";
let dataDir: string;
let postgres: Awaited<ReturnType<typeof emptyPostgresDatabase>>;
let server: ServerProcess;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "vexil-shutdown-"));
  postgres = await emptyPostgresDatabase();
  server = await startServerProcess(
    {
      INIT_ADMIN_API_TOKENS: TOKEN,
      INIT_ADMIN_PASSWORD: "Shutdown-Test-Password-1",
      VEXIL_DATA_DIR: join(dataDir, "data"),
      // Far longer than the test may take: open streams must not wait for it.
      SHUTDOWN_GRACE_MS: "3600000",
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    },
    { npm: true },
  );
}, 120_000);

afterAll(async () => {
  await server?.stop("SIGKILL");
  await postgres?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

/** Reads an SSE response to its end; resolves with everything it carried. */
async function readToEnd(res: Response): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
  }
}

describe("shutdown (npm start, SIGTERM)", () => {
  it("ends open SSE and WebSocket subscriptions at once, and npm passes the signal to the server", async () => {
    const sse = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", authorization: TOKEN },
      body: JSON.stringify({ query: "subscription { events { id } }" }),
    });
    expect(sse.status).toBe(200);
    const sseText = readToEnd(sse);

    const client = createClient({
      url: `${server.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: TOKEN },
      retryAttempts: 0,
    });
    const wsClosed = new Promise<{ code: number }>((resolve) =>
      client.on("closed", (event) => resolve(event as { code: number })),
    );
    const subscribed = new Promise<void>((resolve) => client.on("connected", () => resolve()));
    const wsEnded = new Promise<string>((resolve) => {
      client.subscribe(
        { query: "subscription { events { id } }" },
        { next: () => undefined, error: () => resolve("error"), complete: () => resolve("complete") },
      );
    });
    await subscribed;

    // The child is npm: the signal has to reach the server through it.
    const code = await server.stop("SIGTERM");
    expect(code).toBe(0);
    // The SSE stream was ended by the server with a `complete` event, not cut.
    expect(await sseText).toContain("event: complete");
    expect((await wsClosed).code).toBe(1001);
    await wsEnded;
    await client.dispose();
    expect(server.output.some((line) => line.includes('"msg":"stopped"'))).toBe(true);
    // Nothing is left listening on the port.
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  }, 60_000);
});
