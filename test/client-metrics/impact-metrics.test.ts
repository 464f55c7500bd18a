import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneClientMetricsOnce } from "../../src/jobs/client-metrics-retention.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { apiToken, createFlag, gqlError, gqlOk } from "../helpers/builders.ts";

/**
 * Impact metrics (issue 41.1): the counters, gauges and histograms unleash-client 6.12 sends in
 * `impactMetrics` of `POST /api/client/metrics`, summed per minute, read per series over GraphQL,
 * bounded in series per minute and pruned with the rest of SDK telemetry. Bodies are the SDK's
 * (lib/impact-metrics/metric-types.js `collect()`); the app's clock places each report.
 */
let t: TestApp;
const tokens = { dev: "", prod: "", frontend: "" };
const MINUTE = 60_000;

beforeAll(async () => {
  t = await createTestApp({ VEXIL_METRICS_FLUSH_MS: "0", VEXIL_IMPACT_METRICS_MAX_SERIES: "3" });
  await createFlag(t, "checkout-v2");
  tokens.dev = await apiToken(t, "client", "development", ["*"]);
  tokens.prod = await apiToken(t, "client", "production", ["*"]);
  tokens.frontend = await apiToken(t, "frontend", "development", ["*"]);
});
afterAll(() => t?.close());

const counter = (name: string, samples: { labels?: Record<string, string>; value: number }[]) => ({
  name,
  help: `${name} help`,
  type: "counter",
  samples,
});
const histogram = (name: string, samples: unknown[]) => ({
  name,
  help: "latency",
  type: "histogram",
  samples,
});

/** One metrics call of app `shop` at `at`, carrying `impactMetrics` (and no flag counts). */
async function send(at: Date, impactMetrics: unknown[], token = tokens.dev, path = "/api/client/metrics") {
  t.setNow(at);
  try {
    const body = { appName: "shop", instanceId: "pod-1", environment: "default", impactMetrics };
    return await t.rest("POST", path, body, token);
  } finally {
    t.setNow(null);
  }
}

const SERIES = `query($name: String!, $env: String!, $from: DateTime!, $to: DateTime!, $labels: JSON) {
  impactMetricSeries(name: $name, environment: $env, from: $from, to: $to, labels: $labels) {
    appName type labels points { minute value count p50 p95 p99 } } }`;
type Series = {
  appName: string;
  type: string;
  labels: Record<string, string>;
  points: { minute: string; value: number; count: number | null; p95: number | null }[];
};
const series = async (name: string, from: Date, labels?: unknown, env = "development") =>
  (
    await gqlOk<{ impactMetricSeries: Series[] }>(t, SERIES, {
      name,
      env,
      from: from.toISOString(),
      to: new Date(from.getTime() + 10 * MINUTE).toISOString(),
      labels,
    })
  ).impactMetricSeries;

describe("impact metrics", () => {
  it("sums a counter per minute and series, in the token's environment, labels per series", async () => {
    const at = new Date(Date.now() - 30 * MINUTE);
    const minute = new Date(Math.floor(at.getTime() / MINUTE) * MINUTE);
    const enabled = { "checkout-v2": "enabled", appName: "shop", environment: "default" };
    const disabled = { "checkout-v2": "disabled", appName: "shop", environment: "default" };
    expect((await send(at, [counter("http_errors", [{ labels: enabled, value: 3 }])])).status).toBe(202);
    const later = new Date(minute.getTime() + 30_000);
    const res = await send(later, [
      counter("http_errors", [
        { labels: enabled, value: 2 },
        { labels: disabled, value: 1 },
      ]),
    ]);
    expect(res.status).toBe(202);

    const all = await series("http_errors", minute);
    expect(all).toHaveLength(2);
    const on = all.find((s) => s.labels["checkout-v2"] === "enabled");
    expect(on).toMatchObject({ appName: "shop", type: "counter", labels: { "checkout-v2": "enabled" } });
    expect(on?.points).toEqual([
      { minute: minute.toISOString(), value: 5, count: null, p50: null, p95: null, p99: null },
    ]);

    const selected = await series("http_errors", minute, { "checkout-v2": ["disabled"] });
    expect(selected.map((s) => s.points[0]?.value)).toEqual([1]);
    expect(await series("http_errors", minute, undefined, "production")).toEqual([]);
    const names = await gqlOk<{ impactMetrics: { name: string; type: string }[] }>(
      t,
      `{ impactMetrics(environment: "development") { name type environment } }`,
    );
    expect(names.impactMetrics).toContainEqual({
      name: "http_errors",
      type: "counter",
      environment: "development",
    });
  });

  it("a flag's impact metrics: every metric whose samples name the flag, a series per flag value", async () => {
    const at = new Date(Date.now() - 40 * MINUTE);
    const minute = new Date(Math.floor(at.getTime() / MINUTE) * MINUTE);
    const on = { "search-v3": "enabled" };
    const off = { "search-v3": "disabled" };
    const res = await send(at, [
      counter("search_errors", [
        { labels: on, value: 4 },
        { labels: off, value: 1 },
      ]),
      counter("unrelated_total", [{ labels: { other: "x" }, value: 9 }]),
    ]);
    expect(res.status).toBe(202);
    const data = await gqlOk<any>(
      t,
      `query($from: DateTime!, $to: DateTime!) { featureImpactMetrics(feature: "search-v3", environment: "development",
        from: $from, to: $to) { name type series { appName labels points { minute value } } } }`,
      { from: minute.toISOString(), to: new Date(minute.getTime() + MINUTE).toISOString() },
    );
    expect(data.featureImpactMetrics).toHaveLength(1);
    const [metric] = data.featureImpactMetrics;
    expect(metric).toMatchObject({ name: "search_errors", type: "counter" });
    const byValue = Object.fromEntries(
      metric.series.map((s: any) => [s.labels["search-v3"], s.points.map((p: any) => p.value)]),
    );
    expect(byValue).toEqual({ enabled: [4], disabled: [1] });
    const bad = await gqlError(
      t,
      `{ featureImpactMetrics(feature: "search-v3", environment: "development", from: "2026-01-02T00:00:00Z", to: "2026-01-01T00:00:00Z") { name } }`,
    );
    expect(bad.code).toBe("VALIDATION");
  });

  it("keeps a gauge's last value and adds histogram buckets, with percentiles", async () => {
    const at = new Date(Date.now() - 20 * MINUTE);
    const minute = new Date(Math.floor(at.getTime() / MINUTE) * MINUTE);
    const gauge = (value: number) => ({
      name: "queue_depth",
      help: "q",
      type: "gauge",
      samples: [{ labels: {}, value }],
    });
    const latency = (count: number, sum: number, small: number) =>
      histogram("latency_ms", [
        {
          labels: {},
          count,
          sum,
          buckets: [
            { le: 100, count: small },
            { le: 500, count },
            { le: "+Inf", count },
          ],
        },
      ]);
    expect((await send(at, [gauge(7), latency(10, 1000, 5)])).status).toBe(202);
    expect((await send(at, [gauge(4), latency(10, 3000, 5)])).status).toBe(202);

    expect((await series("queue_depth", minute))[0]?.points[0]?.value).toBe(4);
    const [hist] = await series("latency_ms", minute);
    // 20 observations, 10 of them ≤ 100: the 95th percentile lies in (100, 500], interpolated.
    expect(hist?.points[0]).toMatchObject({ value: 4000, count: 20, p95: 100 + 400 * ((19 - 10) / 10) });
  });

  it("keeps no impact metrics from frontend tokens", async () => {
    const at = new Date(Date.now() - 15 * MINUTE);
    const res = await send(
      at,
      [counter("browser_errors", [{ value: 1 }])],
      tokens.frontend,
      "/api/frontend/client/metrics",
    );
    expect([200, 202, 204]).toContain(res.status);
    expect(await series("browser_errors", new Date(at.getTime() - MINUTE))).toEqual([]);
  });

  it("refuses a malformed impactMetrics with 400 and keeps nothing of the body", async () => {
    const at = new Date(Date.now() - 10 * MINUTE);
    const bad = [
      [{ name: "x", help: "h", type: "summary", samples: [] }],
      [counter("x", [{ value: Number.NaN }])],
      [histogram("x", [{ count: -1, sum: 0, buckets: [] }])],
      [counter("", [{ value: 1 }])],
    ];
    for (const impactMetrics of bad) {
      t.setNow(at);
      const body = {
        appName: "shop-bad",
        instanceId: "pod-1",
        bucket: {
          start: at.toISOString(),
          stop: at.toISOString(),
          toggles: { "checkout-v2": { yes: 1, no: 0 } },
        },
        impactMetrics,
      };
      const res = await t.rest("POST", "/api/client/metrics", body, tokens.dev);
      t.setNow(null);
      expect(res.status, JSON.stringify(impactMetrics)).toBe(400);
    }
    // Good impact metrics in a report whose flag counts are refused are not kept either.
    t.setNow(at);
    const badCounts = await t.rest(
      "POST",
      "/api/client/metrics",
      {
        appName: "shop-bad",
        bucket: {
          start: at.toISOString(),
          stop: at.toISOString(),
          toggles: { "checkout-v2": { yes: -1, no: 0 } },
        },
        impactMetrics: [counter("fine", [{ value: 1 }])],
      },
      tokens.dev,
    );
    t.setNow(null);
    expect(badCounts.status).toBe(400);
    expect(await t.database.prisma.clientMetricsHourly.count({ where: { appName: "shop-bad" } })).toBe(0);
    expect(await t.database.prisma.impactMetricMinute.count({ where: { appName: "shop-bad" } })).toBe(0);
  });

  it("takes in at most VEXIL_IMPACT_METRICS_MAX_SERIES series a minute; known ones keep counting", async () => {
    const at = new Date(Date.now() - 5 * MINUTE);
    const minute = new Date(Math.floor(at.getTime() / MINUTE) * MINUTE);
    const samples = ["a", "b", "c", "d", "e"].map((v) => ({ labels: { user: v }, value: 1 }));
    expect((await send(at, [counter("flood", samples)])).status).toBe(202);
    expect((await send(at, [counter("flood", samples)])).status).toBe(202);
    const kept = await series("flood", minute);
    expect(kept.map((s) => s.labels.user).sort()).toEqual(["a", "b", "c"]);
    expect(kept.map((s) => s.points[0]?.value)).toEqual([2, 2, 2]);
  });

  it("is a typed error for a range that ends before it starts", async () => {
    const from = new Date();
    const error = await gqlError(t, SERIES, {
      name: "http_errors",
      env: "development",
      from: from.toISOString(),
      to: new Date(from.getTime() - MINUTE).toISOString(),
    });
    expect(error.code).toBe("VALIDATION");
  });

  it("prunes minutes older than the retention with the SDK telemetry job", async () => {
    const old = new Date(Date.now() - 50 * 3_600_000);
    expect((await send(old, [counter("old_errors", [{ value: 1 }])])).status).toBe(202);
    expect(
      (await send(new Date(Date.now() - 10 * MINUTE), [counter("recent_errors", [{ value: 1 }])])).status,
    ).toBe(202);
    const pruned = await pruneClientMetricsOnce(t.deps);
    expect(pruned?.impactMetrics).toBe(1);
    expect(await t.database.prisma.impactMetricMinute.count({ where: { name: "old_errors" } })).toBe(0);
    expect(await t.database.prisma.impactMetricMinute.count({ where: { name: "recent_errors" } })).toBe(1);
  });
});
