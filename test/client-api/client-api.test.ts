import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  addDependency,
  apiToken,
  archiveFlag,
  createFlag,
  createProject,
  createSegment,
  enableFlag,
  gqlOk,
} from "../helpers/builders.ts";
import { preflight } from "../helpers/cors.ts";

let t: TestApp;
let devAll: string;
let devDefault: string;
let prodAll: string;
let frontend: string;

const get = async (path: string, auth: string | null, headers: Record<string, string> = {}) => {
  const res = await t.app.fetch(`http://vexil.test${path}`, {
    headers: { ...(auth ? { authorization: auth } : {}), ...headers },
  });
  return res;
};
const json = async (path: string, auth: string | null) => {
  const res = await get(path, auth);
  return { status: res.status, body: await res.json(), headers: res.headers };
};

let segmentId: number;
beforeAll(async () => {
  t = await createTestApp({ FRONTEND_API_ORIGINS: "https://app.example" });
  await createProject(t, "other", { name: "Other" });
  devAll = await apiToken(t, "client", "development", ["*"]);
  devDefault = await apiToken(t, "client", "development", ["default"]);
  prodAll = await apiToken(t, "client", "production", ["*"]);
  frontend = await apiToken(t, "frontend", "development", ["default"]);
  segmentId = await createSegment(t, "beta", {
    constraints: [{ contextName: "plan", operator: "IN", values: ["beta"] }],
  });
  await createFlag(t, "checkout", {
    tags: [{ type: "simple", value: "web" }],
    strategies: [
      {
        name: "flexibleRollout",
        parameters: { rollout: "100", stickiness: "default", groupId: "checkout" },
        constraints: [{ contextName: "country", operator: "IN", values: ["NO"] }],
        segments: [segmentId],
      },
      { name: "default", disabled: true },
    ],
    enabledIn: ["development"],
  });
  await createFlag(t, "checkout-v2");
  await addDependency(t, "checkout-v2", "checkout");
  await enableFlag(t, "checkout-v2", "development");
  await createFlag(t, "other-flag", { project: "other", enabledIn: ["development"] });
  await createFlag(t, "banner", { enabledIn: ["development"] });
  await gqlOk(
    t,
    `mutation { setFeatureEnvironmentVariants(project: "default", feature: "banner", environment: "development",
    variants: [{ name: "red", weight: 1000, weightType: variable, stickiness: "default", payload: { type: string, value: "#f00" } }]) { enabled } }`,
  );
});
afterAll(() => t?.close());

describe("GET /api/client/features", () => {
  it("answers Unleash's client-features format for the token's environment and projects", async () => {
    const res = await json("/api/client/features", devAll);
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(2);
    const names = res.body.features.map((f: { name: string }) => f.name);
    expect(names).toEqual(["banner", "checkout", "checkout-v2", "other-flag"]);
    const checkout = res.body.features.find((f: { name: string }) => f.name === "checkout");
    expect(Object.keys(checkout).sort()).toEqual(
      ["enabled", "impressionData", "name", "project", "stale", "strategies", "type", "variants"].sort(),
    );
    expect(checkout).toMatchObject({ name: "checkout", enabled: true, project: "default", type: "release" });
    // The disabled strategy is not served: SDKs do not skip disabled strategies themselves.
    expect(checkout.strategies).toEqual([
      expect.objectContaining({
        name: "flexibleRollout",
        constraints: [expect.objectContaining({ contextName: "country", values: ["NO"] })],
        segments: [segmentId],
      }),
    ]);
    expect(res.body.features.find((f: { name: string }) => f.name === "checkout-v2").dependencies).toEqual([
      { feature: "checkout", enabled: true },
    ]);
    expect(res.body.segments).toEqual([
      {
        id: segmentId,
        name: "beta",
        constraints: [expect.objectContaining({ contextName: "plan", values: ["beta"] })],
      },
    ]);
    const scoped = await json("/api/client/features", devDefault);
    expect(scoped.body.features.map((f: { name: string }) => f.name)).not.toContain("other-flag");
    const prod = await json("/api/client/features", prodAll);
    expect(prod.body.features.every((f: { enabled: boolean }) => !f.enabled)).toBe(true);
  });

  it("filters by project, name prefix and tag", async () => {
    const names = async (query: string) =>
      (await json(`/api/client/features?${query}`, devAll)).body.features.map(
        (f: { name: string }) => f.name,
      );
    expect(await names("project=other")).toEqual(["other-flag"]);
    expect(await names("namePrefix=checkout")).toEqual(["checkout", "checkout-v2"]);
    expect(await names("tag=simple:web")).toEqual(["checkout"]);
    expect((await json("/api/client/features?tag=nocolon", devAll)).status).toBe(400);
  });

  it("one flag by name; another scope's flag is 404", async () => {
    expect((await json("/api/client/features/checkout", devAll)).body).toMatchObject({
      name: "checkout",
      enabled: true,
    });
    expect((await json("/api/client/features/other-flag", devDefault)).status).toBe(404);
  });

  it("ETag and If-None-Match: 304 until the configuration changes", async () => {
    const first = await get("/api/client/features", devAll);
    const etag = first.headers.get("etag") as string;
    expect(etag).toMatch(/^W\/"/);
    expect((await get("/api/client/features", devAll, { "if-none-match": etag })).status).toBe(304);
    await createFlag(t, "etag-newcomer");
    const changed = await get("/api/client/features", devAll, { "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    // Archived, it is served to no one: the other tests' lists stay as they were.
    await archiveFlag(t, "etag-newcomer");
  });

  it("gzip and brotli when asked, the same JSON", async () => {
    const plain = await (await get("/api/client/features", devAll)).text();
    const gz = await get("/api/client/features", devAll, { "accept-encoding": "gzip" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(plain);
    const br = await get("/api/client/features", devAll, { "accept-encoding": "gzip, br" });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(plain);
  });
});

describe("tokens", () => {
  it("401 without a valid token; 403 for a token of another kind, in the spec's error body", async () => {
    const none = await json("/api/client/features", null);
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({
      id: expect.any(String),
      name: "AuthenticationRequired",
      message: expect.any(String),
    });
    expect((await json("/api/client/features", "default:development.nope")).status).toBe(401);
    const wrongKind = await json("/api/client/features", frontend);
    expect(wrongKind.status).toBe(403);
    expect(wrongKind.body).toMatchObject({ message: expect.stringContaining("invalid token") });
    expect((await json("/api/frontend", devAll)).status).toBe(403);
    expect((await json("/api/frontend", "*:*.test-admin-secret-0123456789abcdef")).status).toBe(403);
    expect((await json("/api/client/nope", devAll)).status).toBe(404);
  });
});

describe("admin tokens on the client API (as Unleash 8.2)", () => {
  const admin = "*:*.test-admin-secret-0123456789abcdef";
  it("read every project of the environment asked for, else of Unleash's `default` environment", async () => {
    const asked = await json("/api/client/features?environment=development", admin);
    expect(asked.status).toBe(200);
    const names = asked.body.features.map((f: { name: string }) => f.name);
    expect(names).toEqual(expect.arrayContaining(["checkout", "other-flag"]));
    expect(asked.body.features.find((f: { name: string }) => f.name === "checkout").enabled).toBe(true);
    const client = await json("/api/client/features", devAll);
    expect(asked.body.features).toEqual(client.body.features);

    const unasked = await json("/api/client/features", admin);
    expect(unasked.status).toBe(200);
    expect(unasked.body.features.some((f: { enabled: boolean }) => f.enabled)).toBe(false);
  });

  it("a client token's environment is its own, whatever the query string says", async () => {
    const res = await json("/api/client/features?environment=production", devAll);
    expect(res.body.features.find((f: { name: string }) => f.name === "checkout").enabled).toBe(true);
  });
});

describe("OpenAPI", () => {
  it("lists the SDK paths under Unleash's tags, with their statuses", async () => {
    const doc = (await (await get("/docs/openapi.json", null)).json()) as {
      paths: Record<string, Record<string, { tags: string[]; responses: Record<string, unknown> }>>;
    };
    const features = doc.paths["/api/client/features"]?.get;
    expect(features?.tags).toEqual(["Client"]);
    expect(Object.keys(features?.responses ?? {})).toEqual(
      expect.arrayContaining(["200", "304", "401", "403"]),
    );
    expect(doc.paths["/api/client/streaming"]?.get).toBeDefined();
    expect(doc.paths["/api/client/features/{name}"]?.get?.responses).toHaveProperty("404");
    expect(doc.paths["/api/frontend"]?.post?.tags).toEqual(["Frontend API"]);
    expect(doc.paths["/api/admin/projects"]).toBeDefined();
  });
});

describe("remembered tokens", () => {
  it("a deleted token is refused at once, though SDK tokens are served from memory", async () => {
    const created = await gqlOk<{ createApiToken: { secret: string; token: { id: number } } }>(
      t,
      `mutation { createApiToken(input: { tokenName: "short-lived", type: "client", environment: "development" }) { secret token { id: databaseId } } }`,
    );
    const secret = created.createApiToken.secret;
    expect((await get("/api/client/features", secret)).status).toBe(200);
    expect((await get("/api/client/features", secret)).status).toBe(200);
    await gqlOk(t, `mutation($id: Int!) { deleteApiToken(id: $id) }`, {
      id: created.createApiToken.token.id,
    });
    expect((await get("/api/client/features", secret)).status).toBe(401);
  });

  it("an expired token is refused even while remembered", async () => {
    const expiresAt = new Date(Date.now() + 60_000);
    const created = await gqlOk<{ createApiToken: { secret: string } }>(
      t,
      `mutation($at: DateTime) { createApiToken(input: { tokenName: "expiring", type: "client", environment: "development", expiresAt: $at }) { secret } }`,
      { at: expiresAt.toISOString() },
    );
    const secret = created.createApiToken.secret;
    expect((await get("/api/client/features", secret)).status).toBe(200);
    t.setNow(new Date(expiresAt.getTime() + 1000));
    try {
      expect((await get("/api/client/features", secret)).status).toBe(401);
    } finally {
      t.setNow(null);
    }
  });
});

describe("frontend API", () => {
  it("GET with the context in the query string: the enabled flags with variants", async () => {
    const off = await json("/api/frontend?userId=u1&properties[country]=SE", frontend);
    expect(off.body.toggles.map((t: { name: string }) => t.name)).toEqual(["banner"]);
    expect(off.body.toggles[0]).toEqual({
      name: "banner",
      enabled: true,
      impressionData: false,
      variant: {
        name: "red",
        enabled: true,
        payload: { type: "string", value: "#f00" },
        feature_enabled: true,
        featureEnabled: true,
      },
    });
    const on = await json("/api/frontend?userId=u1&properties[country]=NO&properties[plan]=beta", frontend);
    expect(on.body.toggles.map((t: { name: string }) => t.name)).toEqual([
      "banner",
      "checkout",
      "checkout-v2",
    ]);
  });

  it("POST with the context in the body; one flag; ETag", async () => {
    const res = await t.app.fetch("http://vexil.test/api/frontend", {
      method: "POST",
      headers: { authorization: frontend, "content-type": "application/json" },
      body: JSON.stringify({ context: { userId: "u1", properties: { country: "NO", plan: "beta" } } }),
    });
    const body = await res.json();
    expect(body.toggles.map((t: { name: string }) => t.name)).toContain("checkout");
    const etag = res.headers.get("etag") as string;
    const again = await get(
      "/api/frontend?userId=u1&properties[country]=NO&properties[plan]=beta",
      frontend,
      { "if-none-match": etag },
    );
    expect(again.status).toBe(304);
    expect(
      (await json("/api/frontend/features/checkout?properties[country]=NO&properties[plan]=beta", frontend))
        .body,
    ).toMatchObject({
      name: "checkout",
      enabled: true,
    });
    expect((await json("/api/frontend/features/checkout?properties[country]=SE", frontend)).status).toBe(404);
    const bad = await t.app.fetch("http://vexil.test/api/frontend", {
      method: "POST",
      headers: { authorization: frontend, "content-type": "application/json" },
      body: JSON.stringify({ context: "x" }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ name: "ValidationError" });
  });

  it("malformed input: broken JSON, an oversized body, a wrong method, never a 500", async () => {
    const post = (body: string) =>
      t.app.fetch("http://vexil.test/api/frontend", {
        method: "POST",
        headers: { authorization: frontend, "content-type": "application/json" },
        body,
      });
    const broken = await post("{ not json");
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ id: expect.any(String), name: "ValidationError" });
    expect((await post("[1, 2]")).status).toBe(400);
    const huge = await post(JSON.stringify({ context: { userId: "x".repeat(2 * 1024 * 1024) } }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ message: expect.any(String) });
    const wrongMethod = await t.app.fetch("http://vexil.test/api/client/features", {
      method: "DELETE",
      headers: { authorization: devAll },
    });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET");
    const encoded = await get("/api/client/features/%E0%A4%A", devAll);
    expect(encoded.status).toBe(400);
    expect(await encoded.json()).toMatchObject({ name: "ValidationError" });
    const odd = await get("/api/frontend?properties[country]=%00&userId=", frontend);
    expect(odd.status).toBeLessThan(500);
  });

  it("CORS: FRONTEND_API_ORIGINS without credentials", async () => {
    const answer = await preflight(t, "https://app.example", "/api/frontend", "GET", ["authorization"]);
    expect(answer.allowOrigin).toBe("https://app.example");
    expect(answer.allowCredentials).not.toBe("true");
  });
});

/** Server-sent events of a streaming response, one `{event, id, data}` at a time. */
async function* sseEvents(res: Response) {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
      const fields = Object.fromEntries(
        block
          .split("\n")
          .filter((line) => !line.startsWith(":"))
          .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]),
      );
      if (fields.event) yield { event: fields.event, id: fields.id, data: JSON.parse(fields.data ?? "null") };
    }
  }
}

describe("GET /api/client/streaming", () => {
  it("hydrates, sends only what changed, and ends when its token is deleted", async () => {
    await createFlag(t, "newcomer");
    await createFlag(t, "outside-scope", { project: "other" });
    const created = await gqlOk<{ createApiToken: { secret: string; token: { id: number } } }>(
      t,
      `mutation { createApiToken(input: { tokenName: "streamer", type: "client", environment: "development", projects: ["default"] }) { secret token { id: databaseId } } }`,
    );
    const res = await get("/api/client/streaming", created.createApiToken.secret);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = sseEvents(res);
    const connected = (await events.next()).value;
    expect(connected?.event).toBe("unleash-connected");
    const [hydration] = connected?.data.events ?? [];
    expect(hydration.type).toBe("hydration");
    expect(hydration.features.map((f: { name: string }) => f.name)).toContain("checkout");
    expect(hydration.features.map((f: { name: string }) => f.name)).not.toContain("other-flag");
    await enableFlag(t, "newcomer", "development");
    const updated = (await events.next()).value;
    expect(updated?.event).toBe("unleash-updated");
    expect(Number(updated?.id)).toBeGreaterThan(Number(connected?.id));
    expect(updated?.data.events).toEqual([
      expect.objectContaining({
        type: "feature-updated",
        feature: expect.objectContaining({ name: "newcomer", enabled: true }),
      }),
    ]);
    // A change in a project outside the token's scope sends nothing; the next one in scope does.
    await enableFlag(t, "outside-scope", "production", "other");
    await gqlOk(t, `mutation { archiveFeatures(project: "default", names: ["newcomer"]) { name } }`);
    const removed = (await events.next()).value;
    expect(removed?.data.events).toEqual([
      { eventId: expect.any(Number), type: "feature-removed", featureName: "newcomer" },
    ]);
    // Out of the token's scope too: it sends nothing, and no other test's list serves it.
    await archiveFlag(t, "outside-scope", "other");
    await gqlOk(t, `mutation($id: Int!) { deleteApiToken(id: $id) }`, {
      id: created.createApiToken.token.id,
    });
    expect((await events.next()).done).toBe(true);
  });

  it("ends when its token expires, with no change to wake it", async () => {
    const created = await gqlOk<{ createApiToken: { secret: string } }>(
      t,
      `mutation($at: DateTime) { createApiToken(input: { tokenName: "streamer-expiring", type: "client", environment: "development", expiresAt: $at }) { secret } }`,
      { at: new Date(Date.now() + 1500).toISOString() },
    );
    const events = sseEvents(await get("/api/client/streaming", created.createApiToken.secret));
    expect((await events.next()).value?.event).toBe("unleash-connected");
    expect((await events.next()).done).toBe(true);
    expect((await get("/api/client/features", created.createApiToken.secret)).status).toBe(401);
  });

  it("takes an admin token as the polling API does", async () => {
    const res = await get(
      "/api/client/streaming?environment=development",
      "*:*.test-admin-secret-0123456789abcdef",
    );
    const events = sseEvents(res);
    const connected = (await events.next()).value;
    expect(connected?.event).toBe("unleash-connected");
    expect(connected?.data.events[0].features.map((f: { name: string }) => f.name)).toContain("other-flag");
    await events.return(undefined);
  });
});
