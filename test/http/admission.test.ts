import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, createListeningTestApp, type ListeningTestApp } from "../helpers/app.ts";
import { createFlag } from "../helpers/builders.ts";

let t: ListeningTestApp;

beforeAll(async () => {
  t = await createListeningTestApp({ VEXIL_MAX_CONCURRENT_REQUESTS: "1" });
});
afterAll(() => t.close());

const gql = (query: string) =>
  fetch(`${t.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: ADMIN_TOKEN },
    body: JSON.stringify({ query }),
  });

/**
 * A GraphQL request whose body arrives in two parts. Resolves `answered` with its status;
 * `finish` sends the rest of the body.
 */
function slowBody(query: string) {
  const body = JSON.stringify({ query });
  const req = httpRequest(`${t.url}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: ADMIN_TOKEN,
      "content-length": body.length,
    },
  });
  const answered = new Promise<number>((resolve, reject) => {
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
  });
  req.write(body.slice(0, 10));
  return { answered, finish: () => req.end(body.slice(10)) };
}

/**
 * Holds the flag's row locked from outside the server until `release`: a toggle of the flag
 * then waits in the database, keeping its slot.
 */
async function lockFlag(name: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked!: () => void;
  const holding = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const transaction = t.database.prisma.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT name FROM "Feature" WHERE name = ${name} FOR UPDATE`;
      locked();
      await released;
    },
    { timeout: 60_000 },
  );
  await holding;
  return {
    release: () => {
      release();
      return transaction;
    },
  };
}

const toggle = (name: string) =>
  fetch(`${t.url}/api/admin/projects/default/features/${name}/environments/development/on`, {
    method: "POST",
    headers: { authorization: ADMIN_TOKEN },
  });

describe("admission: at most VEXIL_MAX_CONCURRENT_REQUESTS requests are handled at once", () => {
  it("queues a request behind one in progress and answers both, in arrival order; probes skip the queue", async () => {
    await createFlag(t, "held");
    expect((await gql("{ __typename }")).status).toBe(200);
    const lock = await lockFlag("held");
    const order: string[] = [];
    const first = toggle("held").then((res) => order.push(`toggle ${res.status}`));
    const second = gql("{ __typename }").then((res) => order.push(`second ${res.status}`));
    for (let i = 0; i < 3; i++) expect((await fetch(`${t.url}/health`)).status).toBe(200);
    expect(order).toEqual([]);
    await lock.release();
    await Promise.all([first, second]);
    expect(order).toEqual(["toggle 200", "second 200"]);
  });

  it("a client that sends its body slowly takes no slot meanwhile", async () => {
    const slow = slowBody("{ __typename }");
    expect((await gql("{ __typename }")).status).toBe(200);
    slow.finish();
    expect(await slow.answered).toBe(200);
  });

  it("a body over the size limit is refused (413) without taking the server down", async () => {
    const huge = `{"query":"{ __typename }","variables":{"x":"${"x".repeat(2_000_000)}"}}`;
    const res = await fetch(`${t.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: ADMIN_TOKEN },
      body: huge,
    }).catch(() => undefined);
    expect(res?.status).toBe(413);
    expect((await gql("{ __typename }")).status).toBe(200);
  });
  it("a stream leaves its slot once it has started", async () => {
    const controller = new AbortController();
    const stream = await fetch(`${t.url}/graphql`, {
      method: "POST",
      signal: controller.signal,
      headers: {
        "content-type": "application/json",
        accept: "text/event-stream",
        authorization: ADMIN_TOKEN,
      },
      body: JSON.stringify({
        query: `subscription { events(filter: { types: ["feature-created"] }) { type } }`,
      }),
    });
    expect(stream.status).toBe(200);
    const res = await gql("{ viewer { name } }");
    expect(res.status).toBe(200);
    controller.abort();
  });

  it("many concurrent requests over one slot all get their answer", async () => {
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => gql("{ viewer { name } }").then((r) => r.status)),
    );
    expect(statuses).toEqual(Array(20).fill(200));
  });
});

describe("a body the admission read", () => {
  it("is handed on as the same bytes, in a form whose keys are not its bytes (the fetch adapter lists them)", async () => {
    const { createServer } = await import("node:http");
    const { normalizeNodeRequest } = await import("@whatwg-node/server");
    const { fetch: _fetch, ...fetchAPI } = await import("@whatwg-node/fetch");
    const { admitRequests } = await import("../../src/http/admission.ts");
    const sent = JSON.stringify({ text: "é".repeat(50_000) });
    let handedOn: unknown;
    const server = createServer(
      admitRequests(
        (request, response) => {
          handedOn = (request as { body?: unknown }).body;
          const fetchRequest = normalizeNodeRequest(request, fetchAPI as never, response);
          void fetchRequest.text().then((text: string) => response.end(text === sent ? "same" : "different"));
        },
        { limit: 1, maxBodyBytes: 1024 * 1024 },
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      const answer = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: sent });
      expect(await answer.text()).toBe("same");
      expect(Object.keys(handedOn as object).length).toBeLessThan(10);
    } finally {
      server.close();
    }
  });
});
