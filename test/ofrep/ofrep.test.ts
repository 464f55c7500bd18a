import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { addStrategy, apiToken, createFlag, createProject, enableFlag, gqlOk } from "../helpers/builders.ts";
import { preflight } from "../helpers/cors.ts";

let t: TestApp;
let devToken: string;
let prodToken: string;
let otherToken: string;
let frontendToken: string;

const variants = (name: string, list: Record<string, unknown>[]) =>
  gqlOk(
    t,
    `mutation($f: String!, $v: [EnvironmentVariantInput!]!) {
      setFeatureEnvironmentVariants(project: "default", feature: $f, environment: "development", variants: $v) { enabled } }`,
    { f: name, v: list },
  );

async function post(path: string, body: unknown, auth: string | null, headers: Record<string, string> = {}) {
  const res = await t.app.fetch(`http://vexil.test${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(auth ? { authorization: auth } : {}), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
const one = (key: string, context: Record<string, unknown> = {}, auth: string | null = devToken) =>
  post(`/ofrep/v1/evaluate/flags/${encodeURIComponent(key)}`, { context }, auth);

beforeAll(async () => {
  t = await createTestApp({ FRONTEND_API_ORIGINS: "https://app.example" });
  devToken = await apiToken(t, "client", "development", ["default"]);
  prodToken = await apiToken(t, "client", "production", ["default"]);
  frontendToken = await apiToken(t, "frontend", "development", ["default"]);
  await createProject(t, "other", { name: "Other" });
  otherToken = await apiToken(t, "client", "development", ["other"]);
  await createFlag(t, "on-for-all");
  await enableFlag(t, "on-for-all", "development");
  await createFlag(t, "off");
  await createFlag(t, "targeted");
  await addStrategy(t, "targeted", {
    name: "flexibleRollout",
    parameters: { rollout: "100", stickiness: "default", groupId: "targeted" },
    constraints: [{ contextName: "country", operator: "IN", values: ["NO"] }],
  });
  await enableFlag(t, "targeted", "development");
  await createFlag(t, "half");
  await addStrategy(t, "half", {
    name: "flexibleRollout",
    parameters: { rollout: "50", stickiness: "default", groupId: "half" },
  });
  await enableFlag(t, "half", "development");
  for (const [name, payload] of [
    ["text", { type: "string", value: "blue" }],
    ["count", { type: "number", value: "42.5" }],
    ["settings", { type: "json", value: '{"theme":"dark","size":3}' }],
  ] as const) {
    await createFlag(t, name);
    await enableFlag(t, name, "development");
    await variants(name, [
      { name: "only", weight: 1000, weightType: "variable", stickiness: "default", payload },
    ]);
  }
  await createFlag(t, "named");
  await enableFlag(t, "named", "development");
  await variants("named", [{ name: "green", weight: 1000, weightType: "variable", stickiness: "default" }]);
  await createFlag(t, "variant-off");
  await variants("variant-off", [
    {
      name: "x",
      weight: 1000,
      weightType: "variable",
      stickiness: "default",
      payload: { type: "string", value: "x" },
    },
  ]);
  await createFlag(t, "elsewhere", { project: "other" });
});
afterAll(() => t?.close());

describe("single-flag evaluation", () => {
  it("a flag without variants answers its state as a boolean, with a reason", async () => {
    expect((await one("on-for-all")).body).toMatchObject({
      key: "on-for-all",
      value: true,
      reason: "STATIC",
      variant: "on",
    });
    expect((await one("off")).body).toMatchObject({
      key: "off",
      value: false,
      reason: "DISABLED",
      variant: "off",
    });
    expect((await one("targeted", { targetingKey: "u1", country: "NO" })).body).toMatchObject({
      value: true,
      reason: "TARGETING_MATCH",
      metadata: { project: "default", enabled: true, strategy: "flexibleRollout" },
    });
    expect((await one("targeted", { targetingKey: "u1", country: "SE" })).body).toMatchObject({
      value: false,
      reason: "DEFAULT",
    });
    const half = await Promise.all(
      Array.from({ length: 20 }, (_, i) => one("half", { targetingKey: `user-${i}` })),
    );
    expect(half.every((r) => r.body.reason === "SPLIT" || r.body.reason === "DEFAULT")).toBe(true);
    expect(new Set(half.map((r) => r.body.value))).toEqual(new Set([true, false]));
  });

  it("a flag with variants answers the variant's payload as a string, number or object", async () => {
    expect((await one("text", { targetingKey: "u1" })).body).toMatchObject({
      value: "blue",
      variant: "only",
    });
    expect((await one("count", { targetingKey: "u1" })).body).toMatchObject({ value: 42.5, variant: "only" });
    expect((await one("settings", { targetingKey: "u1" })).body).toMatchObject({
      value: { theme: "dark", size: 3 },
      variant: "only",
    });
    expect((await one("named", { targetingKey: "u1" })).body).toMatchObject({
      value: "green",
      variant: "green",
    });
    const off = await one("variant-off");
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ key: "variant-off", reason: "DISABLED", variant: "disabled" });
    expect(off.body).not.toHaveProperty("value");
  });

  it("follows the token's environment and projects", async () => {
    expect((await one("on-for-all", {}, prodToken)).body).toMatchObject({ value: false, reason: "DISABLED" });
    const hidden = await one("elsewhere");
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({
      key: "elsewhere",
      errorCode: "FLAG_NOT_FOUND",
      errorDetails: expect.any(String),
    });
    expect((await one("elsewhere", {}, otherToken)).status).toBe(200);
    expect((await one("on-for-all", {}, otherToken)).status).toBe(404);
  });

  it("sees a change at once", async () => {
    await createFlag(t, "fresh");
    expect((await one("fresh")).body.value).toBe(false);
    await enableFlag(t, "fresh", "development");
    expect((await one("fresh")).body.value).toBe(true);
  });
});

describe("bulk evaluation", () => {
  it("answers every flag of the scope, with an ETag that If-None-Match turns into 304 until a change", async () => {
    const first = await post("/ofrep/v1/evaluate/flags", { context: { targetingKey: "u1" } }, frontendToken);
    expect(first.status).toBe(200);
    const keys = first.body.flags.map((f: { key: string }) => f.key);
    expect(keys).toContain("text");
    expect(keys).not.toContain("elsewhere");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^W\/"/);
    const again = await post("/ofrep/v1/evaluate/flags", { context: { targetingKey: "u1" } }, frontendToken, {
      "if-none-match": etag as string,
    });
    expect(again.status).toBe(304);
    const otherContext = await post(
      "/ofrep/v1/evaluate/flags",
      { context: { targetingKey: "u1", country: "NO" } },
      frontendToken,
      {
        "if-none-match": etag as string,
      },
    );
    expect(otherContext.status).toBe(200);
    await enableFlag(t, "off", "development");
    const changed = await post(
      "/ofrep/v1/evaluate/flags",
      { context: { targetingKey: "u1" } },
      frontendToken,
      {
        "if-none-match": etag as string,
      },
    );
    expect(changed.status).toBe(200);
    expect(changed.body.flags.find((f: { key: string }) => f.key === "off")).toMatchObject({ value: true });
  });
});

describe("credentials and bad input", () => {
  it("401 without a valid token, 403 for an admin token, X-API-Key and Bearer accepted", async () => {
    const none = await one("on-for-all", {}, null);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ errorDetails: expect.any(String) });
    expect((await one("on-for-all", {}, "*:development.not-a-real-token")).status).toBe(401);
    const admin = await one("on-for-all", {}, "*:*.test-admin-secret-0123456789abcdef");
    expect(admin.status).toBe(403);
    expect((await one("on-for-all", {}, `Bearer ${devToken}`)).status).toBe(200);
    const apiKey = await post("/ofrep/v1/evaluate/flags/on-for-all", {}, null, { "x-api-key": devToken });
    expect(apiKey.status).toBe(200);
  });

  it("malformed JSON is PARSE_ERROR, a nested attribute INVALID_CONTEXT, both 400; no body is an empty context", async () => {
    const malformed = await post("/ofrep/v1/evaluate/flags/on-for-all", "{nope", devToken);
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ errorCode: "PARSE_ERROR" });
    const nested = await one("on-for-all", { user: { id: 1 } });
    expect(nested.status).toBe(400);
    expect(nested.body).toMatchObject({
      errorCode: "INVALID_CONTEXT",
      errorDetails: expect.stringContaining("user"),
    });
    const notObject = await post("/ofrep/v1/evaluate/flags/on-for-all", { context: [1] }, devToken);
    expect(notObject.body).toMatchObject({ errorCode: "INVALID_CONTEXT" });
    const empty = await t.app.fetch("http://vexil.test/ofrep/v1/evaluate/flags/on-for-all", {
      method: "POST",
      headers: { authorization: devToken },
    });
    expect(empty.status).toBe(200);
    const nul = await one("on-for-all", { name: "a\u0000b" });
    expect(nul.status).toBeLessThan(500);
  });

  it("an oversized body is 413, a wrong method 405, an unknown path 404", async () => {
    const big = await one("on-for-all", { blob: "x".repeat(2_000_000) });
    expect(big.status).toBe(413);
    const get = await t.app.fetch("http://vexil.test/ofrep/v1/evaluate/flags/on-for-all", {
      headers: { authorization: devToken },
    });
    expect(get.status).toBe(405);
    expect((await post("/ofrep/v1/nope", {}, devToken)).status).toBe(404);
  });

  it("too many evaluations for one token: 429 with Retry-After", async () => {
    const limited = await createTestApp({ VEXIL_OFREP_RATE_LIMIT_PER_SECOND: "3" });
    try {
      const secret = await apiToken(limited, "client", "development", ["*"]);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await limited.app.fetch("http://vexil.test/ofrep/v1/evaluate/flags", {
          method: "POST",
          headers: { authorization: secret, "content-type": "application/json" },
          body: "{}",
        });
        statuses.push(res.status);
        if (res.status === 429) expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      }
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
      expect(statuses.slice(3)).toEqual([429, 429]);
    } finally {
      await limited.close();
    }
  });

  it("browsers: CORS for FRONTEND_API_ORIGINS without credentials, none for others", async () => {
    const flags = "/ofrep/v1/evaluate/flags";
    const allowed = await preflight(t, "https://app.example", flags, "POST", [
      "authorization",
      "content-type",
    ]);
    expect(allowed.allowOrigin).toBe("https://app.example");
    expect(allowed.allowCredentials).not.toBe("true");
    expect((await preflight(t, "https://evil.example", flags, "POST")).allowOrigin).toBeNull();
  });

  it("the provider configuration", async () => {
    const res = await t.app.fetch("http://vexil.test/ofrep/v1/configuration", {
      headers: { authorization: devToken },
    });
    expect(await res.json()).toMatchObject({
      name: "Vexil",
      capabilities: { cacheInvalidation: { polling: { enabled: true } } },
    });
  });
});
