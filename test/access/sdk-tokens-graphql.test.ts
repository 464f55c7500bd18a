import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createListeningTestApp, type ListeningTestApp } from "../helpers/app.ts";
import { gqlOk } from "../helpers/builders.ts";

/**
 * Issue 36, point 7: client and frontend tokens serve the SDK APIs only and may run no GraphQL
 * root field; a frontend token ships in every browser app's JavaScript. So `/graphql` refuses
 * them before anything is parsed (403 FORBIDDEN, Unleash's words), introspection included, and
 * the WebSocket refuses them at connect (4403).
 */
let t: ListeningTestApp;
const secrets: Record<string, string> = {};
beforeAll(async () => {
  t = await createListeningTestApp();
  for (const type of ["client", "frontend"]) {
    const created = await gqlOk<{ createApiToken: { secret: string } }>(
      t,
      `mutation($type: String!) { createApiToken(input: { tokenName: $type, type: $type, environment: "development" }) { secret } }`,
      { type },
    );
    secrets[type] = created.createApiToken.secret;
  }
});
afterAll(() => t?.close());

const INTROSPECTION = "{ __schema { queryType { name } types { name } } }";

describe.each(["client", "frontend"])("a %s token on /graphql", (type) => {
  it("gets no introspection over POST or GET: 403 FORBIDDEN", async () => {
    const post = await fetch(`${t.url}/graphql`, {
      method: "POST",
      headers: { authorization: secrets[type] as string, "content-type": "application/json" },
      body: JSON.stringify({ query: INTROSPECTION }),
    });
    const get = await fetch(`${t.url}/graphql?query=${encodeURIComponent(INTROSPECTION)}`, {
      headers: { authorization: secrets[type] as string, accept: "application/json" },
    });
    for (const answer of [post, get]) {
      expect(answer.status).toBe(403);
      const body = await answer.json();
      expect(body.data).toBeUndefined();
      expect(body.errors[0].extensions.code).toBe("FORBIDDEN");
      expect(body.errors[0].message).toBe("invalid token: expected a different token type for this endpoint");
    }
  });

  it("cannot open a graphql-ws connection (4403)", async () => {
    let closeCode: number | undefined;
    const client = createClient({
      url: `${t.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: secrets[type] },
      retryAttempts: 0,
      lazy: true,
      on: { closed: (event) => (closeCode = (event as { code: number }).code) },
    });
    await expect(client.iterate({ query: INTROSPECTION }).next()).rejects.toBeDefined();
    expect(closeCode).toBe(4403);
    await client.dispose();
  });

  it("still reads its SDK API", async () => {
    const path = type === "client" ? "/api/client/features" : "/api/frontend";
    const answer = await fetch(`${t.url}${path}`, { headers: { authorization: secrets[type] as string } });
    expect(answer.status).toBe(200);
  });
});

it("an admin token still introspects", async () => {
  const data = await gqlOk<{ __schema: { queryType: { name: string } } }>(t, INTROSPECTION);
  expect(data.__schema.queryType.name).toBe("Query");
});
