import { createClient } from "graphql-ws";
import WebSocket from "ws";
import type { App } from "../../src/app.ts";
import { hashSecret } from "../../src/modules/access/credentials.write.ts";
import { ADMIN_TOKEN, type TestApp } from "../helpers/app.ts";

export type Result<T> = { data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] };

/** A graphql-ws client on a real WebSocket. */
export function wsClient(httpUrl: string, token = ADMIN_TOKEN) {
  return createClient({
    url: `${httpUrl.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: token },
    retryAttempts: 0,
    lazy: true,
  });
}

/** Takes `count` results from a subscription, then ends it. */
export async function take<T>(
  iterator: AsyncIterableIterator<T>,
  count: number,
  onEach?: (item: T, index: number) => unknown,
) {
  const out: T[] = [];
  if (count === 0) return out;
  for await (const item of iterator) {
    out.push(item);
    await onEach?.(item, out.length - 1);
    if (out.length >= count) break;
  }
  return out;
}

/** A subscription over SSE (yoga's `Accept: text/event-stream`), run in-process. */
export async function* sse<T>(
  app: App,
  query: string,
  variables: Record<string, unknown>,
  token = ADMIN_TOKEN,
) {
  const res = await app.fetch("http://vexil.test/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", authorization: token },
    body: JSON.stringify({ query, variables }),
  });
  if (!res.body) throw new Error(`no SSE body: ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = message
          .split("\n")
          .filter((l) => l.startsWith("data:"))
          .map((l) => l.slice(5).trim())
          .join("\n");
        if (/^event: complete/m.test(message)) return;
        if (data) yield JSON.parse(data) as Result<T>;
        end = buffer.indexOf("\n\n");
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * An admin token scoped to some projects, stored directly: the API makes admin tokens for every
 * project only (createApiToken sets projects ["*"]), and these tests need a narrower one.
 */
export async function seedScopedAdminToken(t: TestApp, secret: string, projects: string[]) {
  // Direct write: the API makes admin tokens for every project only.
  await t.database.prisma.apiToken.create({
    data: {
      tokenName: `token-${secret.slice(-6)}`,
      type: "admin",
      environment: "*",
      projects,
      secretHash: hashSecret(secret),
      displayPrefix: secret.slice(0, 8),
    },
  });
  return secret;
}
