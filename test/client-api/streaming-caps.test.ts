import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../helpers/app.ts";
import { gqlOk } from "../helpers/builders.ts";

/**
 * Issue 36, point 7: `/api/client/streaming` connections are capped per API token and per node
 * (VEXIL_STREAMS_PER_TOKEN, VEXIL_STREAMS_PER_NODE); one more is a 429 with Retry-After in the
 * REST error shape, and a closed stream gives its slot back.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ VEXIL_STREAMS_PER_TOKEN: "2", VEXIL_STREAMS_PER_NODE: "3" });
});
afterAll(() => t?.close());

async function clientToken(name: string): Promise<string> {
  const created = await gqlOk<{ createApiToken: { secret: string } }>(
    t,
    `mutation($n: String!) { createApiToken(input: { tokenName: $n, type: "client", environment: "development" }) { secret } }`,
    { n: name },
  );
  return created.createApiToken.secret;
}

/** Opens a stream; once accepted, waits for its first message (it is really open). */
async function openStream(token: string) {
  const res = await t.app.fetch("http://vexil.test/api/client/streaming", {
    headers: { authorization: token },
  });
  if (res.status === 200) {
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    return { status: 200, close: () => reader.cancel() };
  }
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
}

describe("SDK stream caps", () => {
  it("refuses a token's stream past its cap and the node's past the node's, with 429 and Retry-After", async () => {
    const first = await clientToken("streams-a");
    const second = await clientToken("streams-b");
    const a1 = await openStream(first);
    const a2 = await openStream(first);
    expect([a1.status, a2.status]).toEqual([200, 200]);
    const a3 = await openStream(first);
    expect(a3.status).toBe(429);
    expect(Number(a3.retryAfter)).toBeGreaterThan(0);
    expect(a3.body).toMatchObject({ id: expect.any(String), name: "RateLimitError" });
    expect(a3.body.message).toMatch(/this API token/);

    const b1 = await openStream(second);
    expect(b1.status).toBe(200);
    const b2 = await openStream(second);
    expect(b2.status).toBe(429);
    expect(b2.body.message).toMatch(/on this node/);

    // A closed stream gives its slot back; the admin API is unaffected throughout.
    await a1.close?.();
    await expect
      .poll(async () => {
        const again = await openStream(first);
        await again.close?.();
        return again.status;
      })
      .toBe(200);
    const admin = await t.app.fetch("http://vexil.test/api/admin/projects", {
      headers: { authorization: ADMIN_TOKEN },
    });
    expect(admin.status).toBe(200);
    await Promise.all([a2.close?.(), b1.close?.()]);
  });
});
