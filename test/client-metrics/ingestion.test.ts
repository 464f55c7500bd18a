import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import {
  apiToken,
  createFlag,
  createFlags,
  createProject,
  enableFlag,
  gqlOk,
  sdkBucket,
} from "../helpers/builders.ts";

/**
 * SDK metrics over HTTP, as the SDKs send them (unleash-client's register and metrics bodies,
 * unleash-proxy-client's frontend ones), in the mode where a 202 means stored
 * (VEXIL_METRICS_FLUSH_MS=0); buffered mode is in buffering.test.ts.
 */
let t: TestApp;
const T0 = new Date("2026-03-01T10:15:00.000Z");
/** A bucket of the previous hour (see searchItem for what flag search shows of it). */
const LAST_HOUR = { start: "2026-03-01T09:10:00.000Z", stop: "2026-03-01T09:11:00.000Z" };
const THIS_HOUR = { start: "2026-03-01T10:10:00.000Z", stop: "2026-03-01T10:11:00.000Z" };

const tokens = { devDefault: "", prodAll: "", devOther: "", frontend: "" };

/** App checkout's instance pod-1 reports `toggles` for the last hour's bucket (`extra` overrides). */
const metrics = (
  secret: string,
  toggles: Parameters<typeof sdkBucket>[2],
  extra: Record<string, unknown> = {},
) =>
  t.rest(
    "POST",
    "/api/client/metrics",
    { ...sdkBucket("checkout", "pod-1", toggles, new Date(LAST_HOUR.start)), ...extra },
    secret,
  );

/**
 * Flag search's `yes`/`no` count the buckets of the last 60 minutes (Unleash's
 * `hour >= now() - 1 hour`): read at 10:00, they still hold the 09:00 bucket the reports here use.
 */
const SEARCHED_AT = new Date("2026-03-01T10:00:00.000Z");
const searchItem = async (name: string) => {
  t.setNow(SEARCHED_AT);
  try {
    const res = await t.rest("GET", `/api/admin/search/features?query=${name}`);
    expect(res.status).toBe(200);
    return res.body.features.find((f: { name: string }) => f.name === name);
  } finally {
    t.setNow(T0);
  }
};

beforeAll(async () => {
  t = await createTestApp({ VEXIL_METRICS_FLUSH_MS: "0" });
  t.setNow(T0);
  await createProject(t, "other", { name: "Other" });
  // Flags the refused bodies name; every other test makes the flags it reports on.
  await createFlags(t, ["alpha", "beta"]);
  tokens.devDefault = await apiToken(t, "client", "development", ["default"]);
  tokens.prodAll = await apiToken(t, "client", "production", ["*"]);
  tokens.devOther = await apiToken(t, "client", "development", ["other"]);
  tokens.frontend = await apiToken(t, "frontend", "development", ["*"]);
});
afterAll(() => t?.close());

describe("POST /api/client/metrics", () => {
  it("202, and the counts appear as yes/no of the last hour in flag search", async () => {
    await createFlags(t, ["searched", "searched-off"]);
    await enableFlag(t, "searched", "production");
    const res = await metrics(tokens.devDefault, {
      searched: { yes: 7, no: 3, variants: { blue: 4, red: 3 } },
      "searched-off": { yes: 0, no: 2, variants: {} },
    });
    expect(res.status).toBe(202);
    const searched = await searchItem("searched");
    const dev = searched.environments.find((e: { name: string }) => e.name === "development");
    expect(dev).toMatchObject({ yes: 7, no: 3, lastSeenAt: T0.toISOString() });
    const prod = searched.environments.find((e: { name: string }) => e.name === "production");
    expect(prod).toMatchObject({ yes: 0, no: 0, lastSeenAt: null });
    expect(searched.lastSeenAt).toBe(T0.toISOString());
  });

  it("adds up: a second report from another instance sums into the same hour", async () => {
    await createFlag(t, "summed");
    const first = await metrics(tokens.devDefault, {
      summed: { yes: 7, no: 3, variants: { blue: 4, red: 3 } },
    });
    expect(first.status).toBe(202);
    const res = await metrics(
      tokens.devDefault,
      { summed: { yes: 1, no: 1, variants: { blue: 1 } } },
      {
        instanceId: "pod-2",
      },
    );
    expect(res.status).toBe(202);
    const data = await gqlOk<{ featureMetrics: any[] }>(
      t,
      `{ featureMetrics(name: "summed", hoursBack: 2) { environment appName hour yes no variants { name count } } }`,
    );
    expect(data.featureMetrics).toEqual([
      {
        environment: "development",
        appName: "checkout",
        hour: "2026-03-01T09:00:00.000Z",
        yes: 8,
        no: 4,
        variants: [
          { name: "blue", count: 5 },
          { name: "red", count: 3 },
        ],
      },
    ]);
  });

  it("lastSeenAt moves forward with each report; the lifecycle enters pre-live", async () => {
    await createFlag(t, "seen");
    expect((await metrics(tokens.devDefault, { seen: { yes: 1, no: 0 } })).status).toBe(202);
    t.setNow(new Date("2026-03-01T10:20:00.000Z"));
    try {
      expect((await metrics(tokens.devDefault, { seen: { yes: 1, no: 0 } })).status).toBe(202);
      const data = await gqlOk<{ feature: any }>(
        t,
        `{ feature(name: "seen") { lastSeenAt lifecycle { stage } environments { name lastSeenAt } } }`,
      );
      expect(data.feature).toMatchObject({
        lastSeenAt: "2026-03-01T10:20:00.000Z",
        lifecycle: { stage: "pre-live" },
        environments: [
          { name: "development", lastSeenAt: "2026-03-01T10:20:00.000Z" },
          { name: "production", lastSeenAt: null },
        ],
      });
    } finally {
      t.setNow(T0);
    }
  });

  it("the first metrics from production (flag on there) move the lifecycle to live", async () => {
    await createFlags(t, ["goes-live", "off-in-production"]);
    await enableFlag(t, "goes-live", "production");
    const stage = async (name: string) =>
      (await gqlOk<{ feature: any }>(t, `{ feature(name: "${name}") { lifecycle { stage } } }`)).feature
        .lifecycle.stage;
    expect((await metrics(tokens.devDefault, { "goes-live": { yes: 1, no: 0 } })).status).toBe(202);
    expect(await stage("goes-live")).toBe("pre-live");
    expect((await metrics(tokens.prodAll, { "goes-live": { yes: 5, no: 0 } })).status).toBe(202);
    expect(await stage("goes-live")).toBe("live");
    // off-in-production is off in production: metrics from there only make it pre-live.
    expect((await metrics(tokens.prodAll, { "off-in-production": { yes: 0, no: 5 } })).status).toBe(202);
    expect(await stage("off-in-production")).toBe("pre-live");
  });

  it("counts belong to the token's environment and projects: other projects and unknown flags are ignored", async () => {
    await createFlag(t, "scoped-other", { project: "other" });
    await createFlag(t, "scoped-default");
    const res = await metrics(
      tokens.devOther,
      {
        "scoped-other": { yes: 2, no: 0 },
        "scoped-default": { yes: 100, no: 100 },
        "no-such-flag": { yes: 1, no: 1 },
      },
      { environment: "production" },
    );
    expect(res.status).toBe(202);
    const other = await gqlOk<{ featureMetrics: any[] }>(
      t,
      `{ featureMetrics(name: "scoped-other", hoursBack: 2) { environment yes } }`,
    );
    expect(other.featureMetrics).toEqual([{ environment: "development", yes: 2 }]);
    const inDefault = await searchItem("scoped-default");
    expect(inDefault.environments.find((e: { name: string }) => e.name === "development")).toMatchObject({
      yes: 0,
      no: 0,
    });
    expect(
      await t.database.prisma.clientMetricsHourly.count({ where: { featureName: "scoped-default" } }),
    ).toBe(0);
    expect(
      await t.database.prisma.clientMetricsHourly.count({ where: { featureName: "no-such-flag" } }),
    ).toBe(0);
  });

  it("a bucket started in the future is counted in the current hour", async () => {
    await createFlag(t, "skewed");
    const res = await metrics(
      tokens.devDefault,
      { skewed: { yes: 1, no: 0 } },
      {
        appName: "clock-skew",
        bucket: {
          start: "2026-03-01T13:00:00.000Z",
          stop: "2026-03-01T13:01:00.000Z",
          toggles: { skewed: { yes: 1, no: 0 } },
        },
      },
    );
    expect(res.status).toBe(202);
    const data = await gqlOk<{ featureMetrics: any[] }>(
      t,
      `{ featureMetrics(name: "skewed", appName: "clock-skew") { hour yes } }`,
    );
    expect(data.featureMetrics).toEqual([{ hour: "2026-03-01T10:00:00.000Z", yes: 1 }]);
  });
});

describe("malformed or oversized metrics are refused whole", () => {
  const bodies: [string, unknown][] = [
    ["not JSON", "{nope"],
    ["no appName", { bucket: { ...LAST_HOUR, toggles: { alpha: { yes: 1, no: 1 } } } }],
    [
      "negative count",
      {
        appName: "bad",
        bucket: { ...LAST_HOUR, toggles: { alpha: { yes: 1, no: 1 }, beta: { yes: -1, no: 0 } } },
      },
    ],
    [
      "fractional count",
      { appName: "bad", bucket: { ...LAST_HOUR, toggles: { alpha: { yes: 1.5, no: 0 } } } },
    ],
    ["string count", { appName: "bad", bucket: { ...LAST_HOUR, toggles: { alpha: { yes: "1", no: 0 } } } }],
    ["bad date", { appName: "bad", bucket: { start: "yesterday", stop: LAST_HOUR.stop, toggles: {} } }],
    [
      "bad variant count",
      {
        appName: "bad",
        bucket: { ...LAST_HOUR, toggles: { alpha: { yes: 1, no: 0, variants: { a: -2 } } } },
      },
    ],
    [
      "count over 2^31",
      { appName: "bad", bucket: { ...LAST_HOUR, toggles: { alpha: { yes: 2 ** 31, no: 0 } } } },
    ],
    ["an array", [{ appName: "bad" }]],
  ];
  it.each(bodies)("%s: 400 {id, name, message}, nothing stored", async (_label, body) => {
    const before = await t.database.prisma.clientMetricsHourly.aggregate({ _sum: { yes: true, no: true } });
    const res = await t.rest("POST", "/api/client/metrics", body, tokens.devDefault);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      id: expect.any(String),
      name: "ValidationError",
      message: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+|GraphQL|Variable/);
    const after = await t.database.prisma.clientMetricsHourly.aggregate({ _sum: { yes: true, no: true } });
    expect(after).toEqual(before);
    expect(await t.database.prisma.clientApplication.findUnique({ where: { appName: "bad" } })).toBeNull();
  });

  it("a bad count is named by its path in the body", async () => {
    const res = await t.rest(
      "POST",
      "/api/client/metrics",
      {
        appName: "bad",
        bucket: { ...LAST_HOUR, toggles: { alpha: { yes: 1, no: 0 }, beta: { yes: -1, no: 0 } } },
      },
      tokens.devDefault,
    );
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { path: "bucket.toggles.beta.yes", message: expect.stringMatching(/^bucket\.toggles\.beta\.yes: /) },
    ]);
  });

  it("more flags than VEXIL_METRICS_MAX_FLAGS: 400", async () => {
    const toggles = Object.fromEntries(
      Array.from({ length: 10_001 }, (_, i) => [`f${i}`, { yes: 1, no: 0 }]),
    );
    const res = await metrics(tokens.devDefault, toggles, { appName: "bad" });
    expect(res.status).toBe(400);
    expect(res.body.name).toBe("ValidationError");
  });

  it("a body over VEXIL_MAX_BODY_BYTES: 400", async () => {
    const res = await metrics(
      tokens.devDefault,
      { alpha: { yes: 1, no: 0 } },
      { appName: "bad", pad: "x".repeat(1_100_000) },
    );
    expect(res.status).toBe(400);
    expect(res.body.name).toBe("ValidationError");
  });
});

describe("SDK tokens", () => {
  it("no token: 401; a frontend token on /api/client or a client token on /api/frontend: 403", async () => {
    const body = { appName: "x", bucket: { ...LAST_HOUR, toggles: {} } };
    expect((await t.rest("POST", "/api/client/metrics", body, null)).status).toBe(401);
    expect((await t.rest("POST", "/api/client/metrics", body, tokens.frontend)).status).toBe(403);
    expect((await t.rest("POST", "/api/frontend/client/metrics", body, tokens.devDefault)).status).toBe(403);
  });
});

describe("applications", () => {
  it("register records the instance; metrics keep its SDK details; both listed over GraphQL and REST", async () => {
    const register = await t.rest(
      "POST",
      "/api/client/register",
      {
        appName: "billing",
        instanceId: "billing-1",
        connectionId: "c-9",
        sdkVersion: "unleash-client-node:6.12.1",
        strategies: ["default", "flexibleRollout"],
        started: "2026-03-01T10:00:00.000Z",
        interval: 15000,
        platformName: "node",
        platformVersion: "20.20.0",
        yggdrasilVersion: null,
        specVersion: "5.2.2",
      },
      tokens.devDefault,
    );
    expect(register.status).toBe(202);
    t.setNow(new Date("2026-03-01T10:30:00.000Z"));
    expect(
      (
        await metrics(
          tokens.devDefault,
          { alpha: { yes: 1, no: 0 } },
          { appName: "billing", instanceId: "billing-1" },
        )
      ).status,
    ).toBe(202);
    t.setNow(T0);
    const data = await gqlOk<{ clientApplication: any }>(
      t,
      `{ clientApplication(appName: "billing") {
      appName lastSeenAt instances { instanceId environment sdkType sdkVersion strategies startedAt interval lastSeenAt }
      seenFlags { featureName project environments } } }`,
    );
    expect(data.clientApplication).toEqual({
      appName: "billing",
      lastSeenAt: "2026-03-01T10:30:00.000Z",
      instances: [
        {
          instanceId: "billing-1",
          environment: "development",
          sdkType: "backend",
          sdkVersion: "unleash-client-node:6.12.1",
          strategies: ["default", "flexibleRollout"],
          startedAt: "2026-03-01T10:00:00.000Z",
          interval: 15000,
          lastSeenAt: "2026-03-01T10:30:00.000Z",
        },
      ],
      seenFlags: [{ featureName: "alpha", project: "default", environments: ["development"] }],
    });
    const rest = await t.rest("GET", "/api/admin/metrics/applications/billing");
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({
      appName: "billing",
      sdkVersion: "unleash-client-node:6.12.1",
      strategies: ["default", "flexibleRollout"],
      usage: [{ project: "default", environments: ["development"] }],
    });
  });

  it("GET /api/admin/metrics/applications lists them by name, with query and paging", async () => {
    await createFlag(t, "listed");
    await createFlag(t, "listed-other", { project: "other" });
    const report = async (token: string, appName: string, flag = "listed") =>
      expect((await metrics(token, { [flag]: { yes: 1, no: 0 } }, { appName })).status).toBe(202);
    await report(tokens.devDefault, "listed-checkout");
    await report(tokens.prodAll, "listed-checkout");
    await report(tokens.devOther, "listed-checkout", "listed-other");
    await report(tokens.devDefault, "listed-clock-skew");
    await report(tokens.devDefault, "listed-billing");
    const all = await t.rest("GET", "/api/admin/metrics/applications?query=listed-");
    expect(all.status).toBe(200);
    expect(all.body.applications.map((a: { appName: string }) => a.appName)).toEqual([
      "listed-billing",
      "listed-checkout",
      "listed-clock-skew",
    ]);
    expect(all.body.total).toBe(3);
    const checkout = all.body.applications[1];
    expect(checkout.usage).toEqual([
      { project: "default", environments: ["development", "production"] },
      { project: "other", environments: ["development"] },
    ]);
    const everyone = await t.rest("GET", "/api/admin/metrics/applications");
    const names = everyone.body.applications.map((a: { appName: string }) => a.appName);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(["listed-billing", "listed-checkout", "listed-clock-skew"]));
    expect(everyone.body.total).toBe(names.length);
    const page = await t.rest("GET", "/api/admin/metrics/applications?query=listed-CHECK&limit=1&offset=0");
    expect(page.body).toMatchObject({ total: 1, applications: [{ appName: "listed-checkout" }] });
    expect((await t.rest("GET", "/api/admin/metrics/applications?limit=x")).status).toBe(400);
  });

  it("an unknown application is 404", async () => {
    const res = await t.rest("GET", "/api/admin/metrics/applications/nobody");
    expect(res.status).toBe(404);
    expect(res.body.name).toBe("NotFoundError");
  });

  it("the frontend endpoints take a frontend token and record a frontend instance", async () => {
    const register = await t.rest(
      "POST",
      "/api/frontend/client/register",
      {
        appName: "web",
        instanceId: "browser",
        sdkVersion: "unleash-client-js:3.7.0",
        environment: "default",
        interval: 30000,
        started: "2026-03-01T10:14:00.000Z",
        strategies: [],
      },
      tokens.frontend,
    );
    expect(register).toMatchObject({ status: 200, body: undefined });
    const res = await t.rest(
      "POST",
      "/api/frontend/client/metrics",
      {
        appName: "web",
        instanceId: "browser",
        environment: "default",
        bucket: { ...LAST_HOUR, toggles: { beta: { yes: 3, no: 1, variants: { disabled: 4 } } } },
      },
      tokens.frontend,
    );
    expect(res).toMatchObject({ status: 200, body: undefined });
    const data = await gqlOk<{ clientApplication: any; featureMetrics: any[] }>(
      t,
      `{
      clientApplication(appName: "web") { instances { instanceId environment sdkType sdkVersion } }
      featureMetrics(name: "beta", appName: "web", hoursBack: 2) { environment yes no variants { name count } } }`,
    );
    expect(data.clientApplication.instances).toEqual([
      {
        instanceId: "browser",
        environment: "development",
        sdkType: "frontend",
        sdkVersion: "unleash-client-js:3.7.0",
      },
    ]);
    expect(data.featureMetrics).toEqual([
      { environment: "development", yes: 3, no: 1, variants: [{ name: "disabled", count: 4 }] },
    ]);
  });
});

describe("REST metrics reads", () => {
  it("GET /api/admin/client-metrics/features/:name/raw answers Unleash's shape for hoursBack", async () => {
    await createFlag(t, "raw-read");
    await metrics(tokens.devDefault, { "raw-read": { yes: 7, no: 3, variants: { blue: 4, red: 3 } } });
    await metrics(tokens.devDefault, { "raw-read": { yes: 1, no: 1, variants: { blue: 1 } } });
    await metrics(tokens.prodAll, { "raw-read": { yes: 5, no: 0 } });
    const res = await t.rest("GET", "/api/admin/client-metrics/features/raw-read/raw?hoursBack=2");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      version: 1,
      maturity: "stable",
      data: expect.arrayContaining([
        {
          featureName: "raw-read",
          appName: "checkout",
          environment: "development",
          timestamp: "2026-03-01T09:00:00.000Z",
          yes: 8,
          no: 4,
          variants: { blue: 5, red: 3 },
        },
        {
          featureName: "raw-read",
          appName: "checkout",
          environment: "production",
          timestamp: "2026-03-01T09:00:00.000Z",
          yes: 5,
          no: 0,
          variants: {},
        },
      ]),
    });
    expect(res.body.data).toHaveLength(2);
    // Default: the current hour only.
    const now = await metrics(
      tokens.devDefault,
      {},
      { bucket: { ...THIS_HOUR, toggles: { "raw-read": { yes: 1, no: 0 } } } },
    );
    expect(now.status).toBe(202);
    const current = await t.rest("GET", "/api/admin/client-metrics/features/raw-read/raw");
    expect(current.body.data).toHaveLength(1);
    expect(
      current.body.data.every((d: { timestamp: string }) => d.timestamp === "2026-03-01T10:00:00.000Z"),
    ).toBe(true);
    expect((await t.rest("GET", "/api/admin/client-metrics/features/raw-read/raw?hoursBack=0")).status).toBe(
      400,
    );
    expect(
      (await t.rest("GET", "/api/admin/client-metrics/features/raw-read/raw?hoursBack=721")).status,
    ).toBe(400);
  });

  it("GET /api/admin/client-metrics/features/:name: current hour per environment and the applications", async () => {
    await createFlag(t, "usage-read");
    await metrics(tokens.devDefault, { "usage-read": { yes: 2, no: 2 } }, { appName: "usage-billing" });
    await metrics(
      tokens.devDefault,
      {},
      { bucket: { ...THIS_HOUR, toggles: { "usage-read": { yes: 1, no: 0 } } } },
    );
    const res = await t.rest("GET", "/api/admin/client-metrics/features/usage-read");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      version: 1,
      featureName: "usage-read",
      lastHourUsage: [{ environment: "development", timestamp: "2026-03-01T10:00:00.000Z", yes: 1, no: 0 }],
      seenApplications: ["checkout", "usage-billing"],
    });
  });

  it("the reads need admin-API credentials", async () => {
    expect((await t.rest("GET", "/api/admin/metrics/applications", undefined, null)).status).toBe(401);
    expect(
      (await t.rest("GET", "/api/admin/client-metrics/features/alpha/raw", undefined, tokens.devDefault))
        .status,
    ).toBe(403);
    const res = await t.gql(`{ clientApplications { totalCount } }`, {}, tokens.devDefault);
    expect(res.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });
});

describe("a token in memory", () => {
  it("a deleted token is refused at once, though it was just used (and so kept in memory)", async () => {
    const created = await gqlOk<{ createApiToken: { secret: string; token: { id: number } } }>(
      t,
      `mutation { createApiToken(input: { tokenName: "short-lived", type: "client", environment: "development" }) { secret token { id: databaseId } } }`,
    );
    const secret = created.createApiToken.secret;
    expect((await metrics(secret, { alpha: { yes: 0, no: 0 } }, { appName: "short" })).status).toBe(202);
    await gqlOk(t, `mutation($id: Int!) { deleteApiToken(id: $id) }`, {
      id: created.createApiToken.token.id,
    });
    const res = await metrics(secret, { alpha: { yes: 1, no: 0 } }, { appName: "short" });
    expect(res.status).toBe(401);
  });
});
