import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EDGE_VALIDATE_PER_MINUTE } from "../../src/modules/client-api/edge.endpoints.ts";
import { MAX_TOKENS } from "../../src/modules/client-api/edge.inputs.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../helpers/app.ts";
import { apiToken, createFlags } from "../helpers/builders.ts";

/**
 * Unleash Edge's calls (issue 14): `POST /edge/validate` (no credential, as Unleash; bounded so
 * that it is no oracle, issue 36) and
 * `POST /api/client/metrics/bulk` fed into the SDK metrics ingestion (stored before the 202
 * with VEXIL_METRICS_FLUSH_MS=0).
 */
let t: TestApp;
const T0 = new Date("2026-03-01T10:15:00.000Z");
const tokens = { dev: "", prodDefault: "", frontend: "", expired: "", admin: "" };

beforeAll(async () => {
  t = await createTestApp({ VEXIL_METRICS_FLUSH_MS: "0" });
  await createFlags(t, ["edge-alpha", "edge-beta"]);
  tokens.dev = await apiToken(t, "client", "development", ["*"]);
  tokens.prodDefault = await apiToken(t, "client", "production", ["default"]);
  tokens.frontend = await apiToken(t, "frontend", "development", ["*"]);
  tokens.expired = await apiToken(t, "client", "production", ["*"]);
  tokens.admin = await apiToken(t, "admin", "*", ["*"]);
  const put = await t.rest("PUT", `/api/admin/api-tokens/${tokens.expired}`, {
    expiresAt: "2026-01-01T00:00:00Z",
  });
  expect(put.status).toBe(200);
  t.setNow(T0);
});
afterAll(() => t.close());

describe("POST /edge/validate", () => {
  it("answers the valid tokens among those asked, in order, with type, projects and environment", async () => {
    const res = await t.rest(
      "POST",
      "/edge/validate",
      {
        tokens: [
          tokens.prodDefault,
          "*:development.not-a-token",
          tokens.frontend,
          tokens.expired,
          tokens.dev,
        ],
      },
      null,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tokens: [
        { token: tokens.prodDefault, type: "client", projects: ["default"], environment: "production" },
        { token: tokens.frontend, type: "frontend", projects: ["*"], environment: "development" },
        { token: tokens.dev, type: "client", projects: ["*"], environment: "development" },
      ],
    });
  });

  it("400 for a body that is not {tokens: string[]}, 415 for another media type, 405 for GET", async () => {
    expect((await t.rest("POST", "/edge/validate", { tokens: "x" }, null)).status).toBe(400);
    expect((await t.rest("POST", "/edge/validate", undefined, null)).status).toBe(400);
    const form = await t.app.fetch("http://localhost/edge/validate", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "tokens",
    });
    expect(form.status).toBe(415);
    expect((await t.rest("GET", "/edge/validate", undefined, null)).status).toBe(405);
    expect((await t.rest("POST", "/edge/issue-token", { tokens: [] }, null)).status).toBe(404);
  });

  it("never describes an admin token, whoever asks", async () => {
    for (const caller of [null, tokens.dev]) {
      const res = await t.rest(
        "POST",
        "/edge/validate",
        { tokens: [tokens.admin, ADMIN_TOKEN, tokens.dev] },
        caller,
      );
      expect(res.status).toBe(200);
      expect(res.body.tokens.map((v: { token: string }) => v.token)).toEqual([tokens.dev]);
    }
  });

  it(`asks about at most ${MAX_TOKENS} secrets per call (400 beyond)`, async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `*:development.guess-${i}`);
    expect((await t.rest("POST", "/edge/validate", { tokens: many(MAX_TOKENS) }, null)).status).toBe(200);
    const refused = await t.rest("POST", "/edge/validate", { tokens: many(MAX_TOKENS + 1) }, null);
    expect(refused.status).toBe(400);
    expect(refused.body.name).toBe("ValidationError");
  });

  it("is in the OpenAPI document under Unleash Edge", async () => {
    const doc = (await t.rest("GET", "/docs/openapi.json")).body;
    expect(doc.paths["/edge/validate"].post).toMatchObject({ tags: ["Unleash Edge"], security: [] });
    expect(doc.paths["/api/client/metrics/bulk"].post.responses).toHaveProperty("202");
  });
});

describe("POST /edge/validate, rate-limited per client address", () => {
  let own: TestApp;
  beforeAll(async () => {
    own = await createTestApp();
  });
  afterAll(() => own.close());

  it(`answers 429 with Retry-After after ${EDGE_VALIDATE_PER_MINUTE} calls in a minute, before reading the body`, async () => {
    const call = (body: unknown) => own.rest("POST", "/edge/validate", body, null);
    for (let i = 0; i < EDGE_VALIDATE_PER_MINUTE; i++) {
      expect((await call({ tokens: [`*:development.guess-${i}`] })).status).toBe(200);
    }
    const refused = await call({ tokens: ["*:development.one-more"] });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ name: "RateLimitError" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Counted before the body: even a malformed one is refused 429, not 400.
    expect((await call({ tokens: "not a list" })).status).toBe(429);
  });
});

describe("POST /api/client/metrics/bulk", () => {
  const bulk = (secret: string, body: unknown) => t.rest("POST", "/api/client/metrics/bulk", body, secret);

  it("202: registers the applications and counts the metrics of the token's environment", async () => {
    const res = await bulk(tokens.dev, {
      applications: [
        {
          appName: "edge-checkout",
          instanceId: "pod-7",
          environment: "development",
          sdkVersion: "unleash-client-node:6.1.0",
          sdkType: "backend",
          strategies: ["default"],
          started: "2026-03-01T10:00:00.000Z",
          interval: 15,
          connectVia: [{ appName: "unleash-edge", instanceId: "edge-pod-1" }],
        },
      ],
      metrics: [
        {
          featureName: "edge-alpha",
          appName: "edge-checkout",
          environment: "development",
          timestamp: "2026-03-01T09:20:00.000Z",
          yes: 5,
          no: 2,
          variants: { blue: 3 },
        },
        {
          featureName: "edge-alpha",
          appName: "edge-checkout",
          environment: "development",
          timestamp: "2026-03-01T09:40:00.000Z",
          yes: 1,
          no: 0,
          variants: { blue: 1 },
        },
        { featureName: "edge-beta", appName: "edge-web", environment: "development", yes: 0, no: 4 },
        { featureName: "edge-alpha", appName: "edge-checkout", environment: "production", yes: 99, no: 99 },
      ],
    });
    expect(res).toMatchObject({ status: 202, body: undefined });
    const metrics = await t.gql<{ featureMetrics: unknown[] }>(
      `{ featureMetrics(name: "edge-alpha", hoursBack: 3) { environment appName hour yes no variants { name count } } }`,
    );
    expect(metrics.data?.featureMetrics).toEqual([
      {
        environment: "development",
        appName: "edge-checkout",
        hour: "2026-03-01T09:00:00.000Z",
        yes: 6,
        no: 2,
        variants: [{ name: "blue", count: 4 }],
      },
    ]);
    const app = await t.gql<{ clientApplication: { instances: Record<string, unknown>[] } }>(
      `{ clientApplication(appName: "edge-checkout") { instances { instanceId environment sdkType sdkVersion interval } } }`,
    );
    expect(app.data?.clientApplication.instances).toEqual([
      {
        instanceId: "pod-7",
        environment: "development",
        sdkType: "backend",
        sdkVersion: "unleash-client-node:6.1.0",
        interval: 15,
      },
    ]);
    const web = await t.gql<{ clientApplication: { instances: unknown[] } | null }>(
      `{ clientApplication(appName: "edge-web") { instances { instanceId } } }`,
    );
    expect(web.data?.clientApplication?.instances ?? []).toEqual([]);
  });

  it("400 refuses a malformed batch whole; 401 without a token; 403 for a frontend token", async () => {
    const bad = await bulk(tokens.dev, {
      applications: [],
      metrics: [{ featureName: "edge-beta", appName: "x", environment: "development", yes: -1, no: 0 }],
    });
    expect(bad.status).toBe(400);
    expect((await bulk(tokens.dev, { metrics: [] })).status).toBe(400);
    expect((await bulk(null as never, { applications: [], metrics: [] })).status).toBe(401);
    expect((await bulk(tokens.frontend, { applications: [], metrics: [] })).status).toBe(403);
  });
});
