import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { loadConfig } from "../../src/config.ts";
import { listen } from "../../src/http-server.ts";
import { ADMIN_TOKEN, createListeningTestApp, type ListeningTestApp } from "../helpers/app.ts";

/*
 * Issue 36 point 4: an unauthenticated caller costs the server no body and no socket memory.
 * Bodies are sent without an end: a server that read them before checking the credential would
 * never answer, so each prompt answer below is the proof that the body was not read.
 */
let t: ListeningTestApp;

beforeAll(async () => {
  t = await createListeningTestApp();
});
afterAll(() => t?.close());

type Answer = { status: number; body: string; sent: number; closed: Promise<void> };

/**
 * POSTs a chunked body whose first 64 KB go out at once and whose end never comes; resolves
 * with the answer (and `closed`, when the server closes the connection).
 */
function bodyThatNeverEnds(path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, t.url), {
      method: "POST",
      headers: { "content-type": "application/json", "transfer-encoding": "chunked", ...headers },
    });
    const closed = new Promise<void>((done) => req.once("close", () => done()));
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, sent: 64 * 1024, closed }));
    });
    req.on("error", reject);
    req.write(`{"query":"${"a".repeat(64 * 1024)}`);
  });
}

describe("the credential is checked before the body is read", () => {
  const surfaces = [
    "/graphql",
    "/api/admin/projects",
    "/api/client/metrics",
    "/api/frontend",
    "/api/frontend/client/metrics",
    "/ofrep/v1/evaluate/flags",
  ];

  it("answers a never-ending body 401 at once without a credential, on every surface", async () => {
    for (const path of surfaces) {
      const answer = await bodyThatNeverEnds(path, {});
      expect(answer.status, path).toBe(401);
      // The unread rest is not drained: the server closes the connection after answering.
      await answer.closed;
    }
  });

  it("answers it 401 at once for a secret that is no token, in Authorization or X-API-Key", async () => {
    for (const path of surfaces) {
      const answer = await bodyThatNeverEnds(path, { authorization: "*:*.not-a-token" });
      expect(answer.status, path).toBe(401);
    }
    const apiKey = await bodyThatNeverEnds("/ofrep/v1/evaluate/flags", { "x-api-key": "*:*.nope" });
    expect(apiKey.status).toBe(401);
  });

  it("answers a GraphQL caller in GraphQL's shape, and an unknown path 404, without reading either body", async () => {
    const graphql = await bodyThatNeverEnds("/graphql", {});
    expect(JSON.parse(graphql.body).errors[0].extensions.code).toBe("UNAUTHENTICATED");
    const rest = await bodyThatNeverEnds("/api/admin/projects", {});
    expect(JSON.parse(rest.body)).toMatchObject({ name: "AuthenticationRequired" });
    expect((await bodyThatNeverEnds("/no-such-path", {})).status).toBe(404);
    // Only a public route of the table reads a body without a credential, not its whole prefix.
    expect((await bodyThatNeverEnds("/auth/no-such-route", {})).status).toBe(404);
    expect((await bodyThatNeverEnds("/edge/validate/more", {})).status).toBe(404);
  });

  it("still reads the body of a caller whose credential works", async () => {
    const res = await fetch(`${t.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: ADMIN_TOKEN },
      body: JSON.stringify({ query: "{ projects { databaseId } }" }),
    });
    expect(await res.json()).toEqual({ data: { projects: [{ databaseId: "default" }] } });
  });

  it("in-process too (no admission in front): GraphQL and REST answer 401 to a stream that never ends", async () => {
    for (const path of ["/graphql", "/api/admin/projects"]) {
      const neverEnds = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"query":"'));
        },
      });
      const res = await t.app.fetch(`http://vexil.test${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: neverEnds,
        duplex: "half",
      } as RequestInit);
      expect(res.status, path).toBe(401);
    }
  });
});

/** Opens a graphql-ws socket to `url` and resolves with its close code and how long it stayed open. */
function socketClose(url: string, act: (socket: WebSocket) => void): Promise<{ code: number; ms: number }> {
  const socket = new WebSocket(`${url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
  const opened = performance.now();
  socket.on("open", () => act(socket));
  socket.on("error", () => {});
  return new Promise((resolve) =>
    socket.on("close", (code) => resolve({ code, ms: performance.now() - opened })),
  );
}

const huge = JSON.stringify({ type: "connection_init", payload: { pad: "x".repeat(2 * 1024 * 1024) } });

describe("WebSocket limits", () => {
  it("closes a socket whose first message is larger than VEXIL_MAX_BODY_BYTES (1009), before buffering it", async () => {
    const printed = vi.spyOn(console, "error");
    try {
      const closed = await socketClose(t.url, (socket) => socket.send(huge));
      expect(closed.code).toBe(1009);
      // An expected refusal, not an error line per attacker message.
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
  });

  it("holds an authenticated socket to the same limit", async () => {
    const closed = await socketClose(t.url, (socket) => {
      socket.send(JSON.stringify({ type: "connection_init", payload: { Authorization: ADMIN_TOKEN } }));
      socket.once("message", () => socket.send(huge));
    });
    expect(closed.code).toBe(1009);
  });

  it("gives a socket VEXIL_WS_INIT_TIMEOUT_MS (default 3 s) to send connection_init, then closes it (4408)", async () => {
    expect(loadConfig({}).http.wsInitTimeoutMs).toBe(3000);
    const config = loadConfig({ VEXIL_WS_INIT_TIMEOUT_MS: "300" });
    expect(config.http.wsInitTimeoutMs).toBe(300);
    const server = await listen({ ...t.app, scope: { ...t.deps, config } }, "127.0.0.1", 0);
    try {
      const closed = await socketClose(server.url, () => {});
      expect(closed.code).toBe(4408);
      expect(closed.ms).toBeGreaterThanOrEqual(250);
      expect(closed.ms).toBeLessThan(2500);
    } finally {
      await server.close(0);
    }
  });

  it("keeps a socket that inits in time with a credential", async () => {
    const acked = await new Promise<string>((resolve) => {
      const socket = new WebSocket(`${t.url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
      socket.on("open", () =>
        socket.send(JSON.stringify({ type: "connection_init", payload: { Authorization: ADMIN_TOKEN } })),
      );
      socket.on("message", (data) => {
        resolve(JSON.parse(String(data)).type);
        socket.close();
      });
    });
    expect(acked).toBe("connection_ack");
  });

  it("answers 429 with Retry-After to an address whose sockets were refused VEXIL_WS_REFUSALS_PER_MINUTE times", async () => {
    const config = loadConfig({ VEXIL_WS_REFUSALS_PER_MINUTE: "3" });
    const server = await listen({ ...t.app, scope: { ...t.deps, config } }, "127.0.0.1", 0);
    try {
      const badCredential = (socket: WebSocket) =>
        socket.send(JSON.stringify({ type: "connection_init", payload: { Authorization: "*:*.wrong" } }));
      // Accepted sockets are never counted against their address.
      for (let i = 0; i < 4; i++) expect(await initialised(server.url)).toBe("connection_ack");
      const refused = [];
      for (let i = 0; i < 3; i++) refused.push((await socketClose(server.url, badCredential)).code);
      expect(refused).toEqual([4403, 4403, 4403]);
      const upgrade = await upgradeAnswer(server.url);
      expect(upgrade.status).toBe(429);
      expect(Number(upgrade.retryAfter)).toBeGreaterThan(0);
      expect(Number(upgrade.retryAfter)).toBeLessThanOrEqual(60);
      // Plain HTTP from the same address is not affected.
      const http = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: ADMIN_TOKEN },
        body: JSON.stringify({ query: "{ __typename }" }),
      });
      expect(http.status).toBe(200);
    } finally {
      await server.close(0);
    }
  });
});

/** Opens a graphql-ws socket with the admin credential; the type of the server's first message. */
function initialised(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
    socket.on("open", () =>
      socket.send(JSON.stringify({ type: "connection_init", payload: { Authorization: ADMIN_TOKEN } })),
    );
    socket.on("error", reject);
    socket.on("message", (data) => {
      socket.close();
      socket.once("close", () => resolve(JSON.parse(String(data)).type));
    });
  });
}

/** The HTTP answer to a WebSocket upgrade that the server refuses before the handshake. */
function upgradeAnswer(url: string): Promise<{ status: number; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
    socket.on("unexpected-response", (_request, response) => {
      resolve({ status: response.statusCode ?? 0, retryAfter: response.headers["retry-after"] });
      socket.terminate();
    });
    socket.on("open", () => reject(new Error("the upgrade was accepted")));
    socket.on("error", () => {});
  });
}
