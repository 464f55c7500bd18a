import { Unleash, UnleashEvents } from "unleash-client";
import { EVENTS, UnleashClient } from "unleash-proxy-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createListeningTestApp, type ListeningTestApp } from "../helpers/app.ts";
import { apiToken, createFlag, sdkBucket } from "../helpers/builders.ts";

/**
 * SDK writes (register, metrics, Edge's bulk) are rate limited per API token and per client
 * address (issue 36.2): over a limit the answer is 429 with Retry-After, as Unleash's SDKs
 * expect; reads are not counted. Limits are tiny here so that a few requests reach them.
 */
let t: ListeningTestApp;
const PER_TOKEN = 5;
const PER_ADDRESS = 3;
const sdks: { destroy(): void }[] = [];

beforeAll(async () => {
  t = await createListeningTestApp({
    VEXIL_METRICS_FLUSH_MS: "0",
    VEXIL_SDK_WRITES_PER_MINUTE_PER_TOKEN: String(PER_TOKEN),
    VEXIL_SDK_WRITES_PER_MINUTE_PER_ADDRESS: String(PER_ADDRESS),
    // The address is the last X-Forwarded-For entry, so one test process can be many clients.
    VEXIL_TRUST_PROXY: "true",
  });
  await createFlag(t, "limited-flag", { enabledIn: ["development"] });
});
afterAll(async () => {
  for (const sdk of sdks) sdk.destroy();
  await t?.close();
});

let tokens = 0;
const token = (type: "client" | "frontend") =>
  apiToken(t, type, "development", ["*"], `limits-${type}-${++tokens}`);

const send = (path: string, secret: string, address: string, body: unknown, method = "POST") =>
  t.app.fetch(`http://vexil.test${path}`, {
    method,
    headers: { "content-type": "application/json", authorization: secret, "x-forwarded-for": address },
    body: method === "POST" ? JSON.stringify(body) : undefined,
  });

const metrics = (appName = "limited-app") =>
  sdkBucket(appName, `${appName}-1`, { "limited-flag": { yes: 1, no: 0 } });
const register = {
  appName: "limited-app",
  instanceId: "limited-app-1",
  strategies: ["default"],
  interval: 60_000,
};

async function expectRateLimited(res: Response, what: "address" | "token") {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
  const body = await res.json();
  expect(body).toMatchObject({ id: expect.any(String), name: "RateLimitError" });
  expect(body.message).toContain(what);
}

describe("SDK write rate limits", () => {
  it("per address: every SDK write route counts; past the limit 429 with Retry-After; reads and other addresses go on", async () => {
    const client = await token("client");
    const frontend = await token("frontend");
    const address = "10.36.2.1";
    expect((await send("/api/client/register", client, address, register)).status).toBe(202);
    expect((await send("/api/client/metrics", client, address, metrics())).status).toBe(202);
    expect((await send("/api/frontend/client/metrics", frontend, address, metrics("web"))).status).toBe(200);

    await expectRateLimited(
      await send("/api/client/metrics/bulk", client, address, { applications: [], metrics: [] }),
      "address",
    );
    await expectRateLimited(
      await send("/api/frontend/client/register", frontend, address, { appName: "web" }),
      "address",
    );
    await expectRateLimited(await send("/api/client/metrics", client, address, metrics()), "address");
    expect((await send("/api/client/features", client, address, undefined, "GET")).status).toBe(200);
    expect((await send("/api/client/metrics", client, "10.36.2.2", metrics())).status).toBe(202);
  });

  it("per token: past the limit 429 from any address; another token goes on", async () => {
    const client = await token("client");
    for (let i = 0; i < PER_TOKEN; i++) {
      expect((await send("/api/client/metrics", client, `10.36.3.${i}`, metrics())).status).toBe(202);
    }
    await expectRateLimited(await send("/api/client/metrics", client, "10.36.3.99", metrics()), "token");
    expect((await send("/api/client/metrics", await token("client"), "10.36.3.99", metrics())).status).toBe(
      202,
    );
  });

  it("is in the OpenAPI document of the SDK write routes", async () => {
    const doc = (await t.rest("GET", "/docs/openapi.json")).body;
    expect(doc.paths["/api/client/metrics"].post.responses["429"]).toBeDefined();
    expect(doc.paths["/api/frontend/client/register"].post.responses["429"]).toBeDefined();
    expect(doc.paths["/api/frontend"].post.responses["429"]).toBeUndefined();
  });
});

describe("the official SDKs meet the limit", () => {
  it("unleash-client keeps its bucket and backs off on 429", async () => {
    const secret = await token("client");
    // Its register and two metrics reports use up this address's limit (all SDKs here share 127.0.0.1).
    const sdk = new Unleash({
      url: `${t.url}/api/`,
      appName: "backing-off",
      instanceId: "backing-off-1",
      customHeaders: { Authorization: secret },
      refreshInterval: 600_000,
      metricsInterval: 20,
    });
    sdk.on(UnleashEvents.Error, () => undefined);
    sdks.push(sdk);
    const warned = new Promise<string>((resolve) => {
      sdk.on(UnleashEvents.Warn, (message: unknown) => {
        if (String(message).includes("429")) resolve(String(message));
      });
    });
    sdk.on(UnleashEvents.Sent, () => sdk.isEnabled("limited-flag"));
    await new Promise((resolve) => sdk.once(UnleashEvents.Synchronized, resolve));
    sdk.isEnabled("limited-flag");
    expect(await warned).toMatch(/returning 429\. Backing off/);
    // The refused bucket was put back: the next report will carry it.
    const pending = (sdk as unknown as { metrics: { bucket: { toggles: Record<string, { yes: number }> } } })
      .metrics.bucket.toggles["limited-flag"];
    expect(pending?.yes).toBeGreaterThan(0);
    sdk.destroy();
  });

  it("unleash-proxy-client keeps serving flags; a refused metrics bucket is dropped", async () => {
    const secret = await token("frontend");
    // This address's limit is used up by the test above (and by this one if run alone).
    for (let i = 0; i < PER_ADDRESS; i++) {
      await fetch(`${t.url}/api/frontend/client/metrics`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: secret },
        body: JSON.stringify(metrics("web")),
      });
    }
    const client = new UnleashClient({
      url: `${t.url}/api/frontend`,
      clientKey: secret,
      appName: "web",
      refreshInterval: 600,
      metricsInterval: 0.02,
      metricsIntervalInitial: 0,
    });
    sdks.push({ destroy: () => client.stop() });
    await new Promise<void>((resolve) => {
      client.on(EVENTS.READY, () => resolve());
      void client.start();
    });
    expect(client.isEnabled("limited-flag")).toBe(true);
    await new Promise<void>((resolve) => client.on(EVENTS.SENT, () => resolve()));
    const stored = await t.database.prisma.clientInstance.findMany({
      where: { appName: "web", instanceId: "browser" },
    });
    expect(stored).toEqual([]);
  });
});
