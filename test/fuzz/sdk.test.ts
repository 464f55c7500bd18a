import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { apiToken, createFlag, enableFlag, sdkBucket } from "../helpers/builders.ts";
import { checkRestAnswer, FUZZ_SEED, jsonValue, text } from "./fuzz-helpers.ts";

/*
 * The routes a public token reaches (server SDKs' client API, browser SDKs' frontend API,
 * OpenFeature's OFREP, Unleash Edge's validate): every text field of their bodies, and their
 * query strings and paths, with what breaks servers (NUL, lone surrogates, prototype keys,
 * oversized values). Nothing may answer 5xx or reach the database's text, and afterwards the
 * database still reads and writes, and a good report is still counted. Frontend and client
 * tokens ship in apps: this is an attacker's input.
 */
let t: TestApp;
const tokens = { client: "", frontend: "" };
const T0 = new Date("2026-06-01T12:30:00.000Z");

beforeAll(async () => {
  // A 202 means stored: a report that reached the database shows at once.
  t = await createTestApp({ VEXIL_METRICS_FLUSH_MS: "0" });
  t.setNow(T0);
  await createFlag(t, "sdk-fuzz-flag");
  await enableFlag(t, "sdk-fuzz-flag", "development");
  tokens.client = await apiToken(t, "client", "development", ["*"]);
  tokens.frontend = await apiToken(t, "frontend", "development", ["*"]);
});
afterAll(() => t?.close());

type Who = keyof typeof tokens;
type Body = Record<string, unknown>;
/** A place in a body that holds text: a value at `path`, or the key of the object at `path`. */
type TextSlot = { path: (string | number)[]; key?: true };

type Route = {
  method: "GET" | "POST";
  path: string;
  who: Who;
  body?: () => Body;
  slots: TextSlot[];
  query?: string[];
};

const start = new Date(T0.getTime() - 60_000);
const instance = () => ({
  ...sdkBucket("fuzz-app", "pod-1", { "sdk-fuzz-flag": { yes: 1, no: 0, variants: { blue: 1 } } }, start),
});
const INSTANCE_SLOTS: TextSlot[] = [
  "appName",
  "instanceId",
  "environment",
  "platformName",
  "platformVersion",
  "sdkVersion",
].map((field) => ({ path: [field] }));
const METRICS_SLOTS: TextSlot[] = [
  ...INSTANCE_SLOTS,
  { path: ["bucket", "toggles"], key: true },
  { path: ["bucket", "toggles", "sdk-fuzz-flag", "variants"], key: true },
  { path: ["bucket", "start"] },
];
/** A server SDK's report also carries its impact metrics (unleash-client 6.12). */
const clientMetrics = () => ({
  ...instance(),
  impactMetrics: [
    {
      name: "fuzz_errors",
      help: "errors",
      type: "counter",
      samples: [{ labels: { "sdk-fuzz-flag": "enabled" }, value: 1 }],
    },
  ],
});
const CLIENT_METRICS_SLOTS: TextSlot[] = [
  ...METRICS_SLOTS,
  { path: ["impactMetrics", 0, "name"] },
  { path: ["impactMetrics", 0, "samples", 0, "labels"], key: true },
  { path: ["impactMetrics", 0, "samples", 0, "labels", "sdk-fuzz-flag"] },
];
const register = () => ({
  appName: "fuzz-app",
  instanceId: "pod-1",
  sdkVersion: "unleash-client-node:6.12.1",
  strategies: ["default", "flexibleRollout"],
  started: start.toISOString(),
  interval: 15_000,
});
const REGISTER_SLOTS: TextSlot[] = [...INSTANCE_SLOTS, { path: ["strategies", 0] }, { path: ["started"] }];
const bulk = () => ({
  applications: [{ ...register(), environment: "development", sdkType: "backend" }],
  metrics: [
    {
      featureName: "sdk-fuzz-flag",
      appName: "fuzz-app",
      environment: "development",
      timestamp: start.toISOString(),
      yes: 1,
      no: 0,
      variants: { blue: 1 },
    },
  ],
});
const context = () => ({ context: { userId: "u1", sessionId: "s1", properties: { plan: "pro" } } });
/** OFREP's context is flat: the targeting key and any attributes. */
const ofrepContext = () => ({ context: { targetingKey: "u1", plan: "pro" } });
const OFREP_SLOTS: TextSlot[] = [
  { path: ["context", "targetingKey"] },
  { path: ["context", "plan"] },
  { path: ["context"], key: true },
];
const CONTEXT_SLOTS: TextSlot[] = [
  { path: ["context", "userId"] },
  { path: ["context", "sessionId"] },
  { path: ["context", "properties", "plan"] },
  { path: ["context", "properties"], key: true },
];

const ROUTES: Route[] = [
  { method: "POST", path: "/api/client/register", who: "client", body: register, slots: REGISTER_SLOTS },
  {
    method: "POST",
    path: "/api/client/metrics",
    who: "client",
    body: clientMetrics,
    slots: CLIENT_METRICS_SLOTS,
  },
  {
    method: "POST",
    path: "/api/client/metrics/bulk",
    who: "client",
    body: bulk,
    slots: [
      ...["appName", "instanceId", "environment", "sdkVersion"].map((f) => ({
        path: ["applications", 0, f],
      })),
      { path: ["applications", 0, "strategies", 0] },
      ...["featureName", "appName", "environment"].map((f) => ({ path: ["metrics", 0, f] })),
      { path: ["metrics", 0, "variants"], key: true },
    ],
  },
  {
    method: "POST",
    path: "/api/frontend/client/register",
    who: "frontend",
    body: register,
    slots: REGISTER_SLOTS,
  },
  {
    method: "POST",
    path: "/api/frontend/client/metrics",
    who: "frontend",
    body: instance,
    slots: METRICS_SLOTS,
  },
  { method: "POST", path: "/api/frontend", who: "frontend", body: context, slots: CONTEXT_SLOTS },
  {
    method: "POST",
    path: "/ofrep/v1/evaluate/flags",
    who: "frontend",
    body: ofrepContext,
    slots: OFREP_SLOTS,
  },
  {
    method: "POST",
    path: "/ofrep/v1/evaluate/flags/sdk-fuzz-flag",
    who: "client",
    body: ofrepContext,
    slots: OFREP_SLOTS,
  },
  {
    method: "POST",
    path: "/edge/validate",
    who: "client",
    body: () => ({ tokens: ["x"] }),
    slots: [{ path: ["tokens", 0] }],
  },
  {
    method: "GET",
    path: "/api/client/features",
    who: "client",
    slots: [],
    query: ["project", "namePrefix", "tag"],
  },
  {
    method: "GET",
    path: "/api/frontend",
    who: "frontend",
    slots: [],
    query: ["userId", "sessionId", "properties[plan]"],
  },
];

const BAD_TEXT = { nul: "we\u0000b", surrogate: "a\ud800b", lowSurrogate: "\udfffz" };
const PROTOTYPE_KEYS = ["__proto__", "constructor", "prototype", "hasOwnProperty", "toString"];

/** `body` with the text at `slot` replaced by `value` (a key is renamed, keeping its value). */
function withText(body: Body, slot: TextSlot, value: string): Body {
  if (!slot.key) return setAt(body, slot.path, value);
  const copy = structuredClone(body);
  let parent: any = copy;
  for (const step of slot.path) parent = parent[step];
  const [first] = Object.keys(parent);
  // defineProperty: `__proto__` as an own key, as JSON.parse makes it.
  Object.defineProperty(parent, value, {
    value: first === undefined ? "x" : parent[first],
    enumerable: true,
    configurable: true,
    writable: true,
  });
  if (first !== undefined) delete parent[first];
  return copy;
}

async function send(route: Route, body: string | undefined, query = "") {
  const res = await t.app.fetch(`http://vexil.test${route.path}${query}`, {
    method: route.method,
    headers: { "content-type": "application/json", authorization: tokens[route.who] },
    ...(body === undefined ? {} : { body }),
  });
  const request = `${route.method} ${route.path}${query} ${body?.slice(0, 200) ?? ""}`;
  const answer = {
    status: res.status,
    contentType: res.headers.get("content-type") ?? "",
    text: await res.text(),
    request,
  };
  if (route.path.startsWith("/ofrep/")) checkOfrepAnswer(answer);
  else checkRestAnswer(answer);
  return answer;
}

/** OFREP answers errors in its own shape (`errorCode`, `errorDetails`), as its providers read them. */
function checkOfrepAnswer(answer: { status: number; text: string; request: string }) {
  expect(answer.status, `${answer.request} -> ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  if (answer.status >= 400 && answer.status !== 429) {
    expect(JSON.parse(answer.text), answer.request).toMatchObject({ errorCode: expect.any(String) });
  }
}

/** The server still reads and writes, and a good report from each SDK kind still counts. */
async function stillHealthy() {
  expect((await t.app.fetch("http://vexil.test/ready")).status).toBe(200);
  const name = `after-${Math.random().toString(36).slice(2, 10)}`;
  expect((await t.rest("POST", "/api/admin/projects/default/features", { name })).status).toBeLessThan(300);
  const report = sdkBucket("healthy-app", "pod-9", { [name]: { yes: 2, no: 1, variants: {} } }, start);
  expect((await t.rest("POST", "/api/client/metrics", report, tokens.client)).status).toBe(202);
  expect((await t.rest("POST", "/api/frontend/client/metrics", report, tokens.frontend)).status).toBe(200);
  const usage = await t.rest("GET", `/api/admin/client-metrics/features/${name}/raw`);
  expect(usage.status).toBe(200);
  const yes = usage.body.data.reduce((sum: number, row: { yes: number }) => sum + row.yes, 0);
  expect(yes).toBe(4);
}

describe("text a database cannot store, in every text field of the SDK, OFREP and Edge routes", () => {
  for (const route of ROUTES.filter((r) => r.body)) {
    it(`${route.method} ${route.path}: NUL and lone surrogates are a 400 naming the field`, async () => {
      for (const slot of route.slots) {
        for (const [kind, value] of Object.entries(BAD_TEXT)) {
          const answer = await send(route, JSON.stringify(withText(route.body!(), slot, value)));
          const where = `${kind} in ${slot.path.join(".")}${slot.key ? " (key)" : ""}`;
          // Edge's validate may refuse the caller first (401/403); never a 5xx (checked in send).
          if (route.path === "/edge/validate") continue;
          expect(answer.status, where).toBe(400);
          const body = JSON.parse(answer.text);
          expect(body.name ?? body.errorCode, where).toMatch(/^(ValidationError|PARSE_ERROR)$/);
        }
      }
    });
  }

  it("the same escapes raw in the JSON text, and bytes that are not UTF-8, are refused too", async () => {
    const [metrics] = ROUTES.filter((r) => r.path === "/api/frontend/client/metrics") as [Route];
    const raw = JSON.stringify(metrics.body!()).replace('"fuzz-app"', '"we\\u0000b"');
    expect((await send(metrics, raw)).status).toBe(400);
    const res = await t.app.fetch("http://vexil.test/api/client/register", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: tokens.client },
      body: Buffer.concat([Buffer.from('{"appName":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/UTF-8/);
  });

  it("query strings and paths with NUL or broken encoding answer < 500", async () => {
    for (const route of ROUTES.filter((r) => r.query)) {
      for (const name of route.query!) {
        for (const value of ["%00", "a%00b", "%ED%A0%80", "%ff", "%"])
          await send(route, undefined, `?${name}=${value}`);
      }
    }
    for (const path of [
      "/api/client/features/%00",
      "/api/frontend/features/a%00b",
      "/api/client/features/%ED%A0%80",
    ]) {
      await send(
        { method: "GET", path, who: path.includes("frontend") ? "frontend" : "client", slots: [] },
        undefined,
      );
    }
    await stillHealthy();
  });

  it("prototype keys anywhere in a body answer < 500 and poison nothing", async () => {
    for (const route of ROUTES.filter((r) => r.body)) {
      for (const key of PROTOTYPE_KEYS) {
        await send(
          route,
          JSON.stringify({ ...route.body!(), [key]: { polluted: true } }).replace(`"${key}"`, `"${key}"`),
        );
        await send(route, `{"${key}": {"polluted": true}, "appName": "proto-app"}`);
        for (const slot of route.slots.filter((s) => s.key))
          await send(route, JSON.stringify(withText(route.body!(), slot, key)));
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await stillHealthy();
  });

  it("oversized values are refused, never stored (long names, many names, a body past the limit)", async () => {
    const [metrics, register] = ["/api/client/metrics", "/api/client/register"].map(
      (p) => ROUTES.find((r) => r.path === p) as Route,
    ) as [Route, Route];
    for (const slot of metrics.slots) {
      const answer = await send(metrics, JSON.stringify(withText(metrics.body!(), slot, "x".repeat(10_000))));
      expect(answer.status, slot.path.join(".")).toBe(400);
    }
    const strategies = { ...register.body!(), strategies: Array.from({ length: 5_000 }, (_, i) => `s${i}`) };
    expect((await send(register, JSON.stringify(strategies))).status).toBe(400);
    const huge = JSON.stringify({ ...register.body!(), appName: "y".repeat(t.config.http.maxBodyBytes) });
    // An SDK report past the body limit is a 400, as a malformed report (sdkReportBody).
    expect((await send(register, huge)).status).toBe(400);
    await stillHealthy();
  });
});

describe("generated input (fast-check) on every public-token route", () => {
  it("never answers 5xx, and the database still reads and writes afterwards", async () => {
    const routeArb = fc.constantFrom(...ROUTES);
    const caseArb = fc.record({
      route: routeArb,
      slotValues: fc.array(fc.tuple(fc.nat(), jsonValue), { maxLength: 3 }),
      extra: fc.dictionary(fc.oneof(text, fc.constantFrom(...PROTOTYPE_KEYS)), jsonValue, { maxKeys: 2 }),
      query: fc.array(fc.tuple(text, text), { maxLength: 2 }),
    });
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ route, slotValues, extra, query }) => {
        let body: Body | undefined = route.body?.();
        if (body) {
          for (const [i, value] of slotValues) {
            const slot = route.slots[i % Math.max(1, route.slots.length)];
            if (slot && !slot.key) body = setAt(body, slot.path, value);
          }
          body = { ...body, ...extra };
        }
        const search = query
          .map(([k, v]) => `${encodeURIComponent(safe(k))}=${encodeURIComponent(safe(v))}`)
          .join("&");
        await send(route, body === undefined ? undefined : JSON.stringify(body), search ? `?${search}` : "");
      }),
      { seed: FUZZ_SEED, numRuns: Number(process.env.FUZZ_RUNS ?? 400) },
    );
    await stillHealthy();
  });
});

function setAt(body: Body, path: (string | number)[], value: unknown): Body {
  const copy = structuredClone(body);
  let parent: any = copy;
  for (const step of path.slice(0, -1)) parent = parent[step];
  parent[path[path.length - 1] as string | number] = value;
  return copy;
}

/** encodeURIComponent throws on a lone surrogate: those go in through the bodies. */
const safe = (s: string) => s.replace(/[\ud800-\udfff]/g, "x");
