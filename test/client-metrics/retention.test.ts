import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneClientMetricsOnce } from "../../src/jobs/client-metrics-retention.ts";
import { createTestApp, type TestApp, withClock } from "../helpers/app.ts";
import { apiToken, createFlag, gqlOk, reportMetrics } from "../helpers/builders.ts";

/**
 * SDK telemetry is kept as Unleash keeps it (issue 36.2): per-application metrics and silent
 * instances 48 hours, unknown flags 24 hours, applications 30 days; at the application cap,
 * applications no admin described and with no instance left go at once. Past reports are made
 * through the API at the app's clock (setNow), then one pruning pass runs at the real time.
 */
let t: TestApp;
let secret: string;
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await createTestApp({ VEXIL_METRICS_FLUSH_MS: "0", VEXIL_METRICS_MAX_APPLICATIONS: "5" });
  await createFlag(t, "kept-flag", { enabledIn: ["development"] });
  secret = await apiToken(t, "client", "development", ["*"]);
});
afterAll(() => t?.close());

const ago = (ms: number) => new Date(Date.now() - ms);
const register = (appName: string, at: Date) =>
  withClock(t, at, async () => {
    const body = { appName, instanceId: `${appName}-1`, strategies: [] };
    return (await t.rest("POST", "/api/client/register", body, secret)).status;
  });
const report = (appName: string, at: Date, toggles: Parameters<typeof reportMetrics>[2]) =>
  withClock(t, at, () => reportMetrics(t, secret, toggles, { appName }));

const appNames = async () =>
  (await t.rest("GET", "/api/admin/metrics/applications")).body.applications.map(
    (a: { appName: string }) => a.appName,
  ) as string[];

describe("retention of SDK telemetry", () => {
  it("per-application metrics and instances go after 48 hours, unknown flags after 24", async () => {
    const counts = { "kept-flag": { yes: 1, no: 0, variants: { blue: 1 } } };
    expect(await register("old-app", ago(50 * HOUR))).toBe(202);
    expect(await report("old-app", ago(50 * HOUR), { ...counts, "old-ghost": { yes: 1, no: 0 } })).toBe(202);
    expect(await report("recent-app", ago(25 * HOUR), { "stale-ghost": { yes: 1, no: 0 } })).toBe(202);
    expect(await register("recent-app", ago(HOUR))).toBe(202);
    expect(await report("recent-app", ago(HOUR), { ...counts, "fresh-ghost": { yes: 1, no: 0 } })).toBe(202);
    const db = t.database.prisma;
    expect(await db.clientVariantMetricsHourly.count({ where: { appName: "old-app" } })).toBe(1);
    expect(await db.unknownFlag.count()).toBe(3);

    const pruned = await pruneClientMetricsOnce(t.deps);
    expect(pruned).toMatchObject({ metrics: 1, variantMetrics: 1, instances: 1, unknownFlags: 2 });

    const raw = await gqlOk<{ featureMetrics: { appName: string }[] }>(
      t,
      `{ featureMetrics(name: "kept-flag", hoursBack: 72) { appName } }`,
    );
    expect(raw.featureMetrics.map((r) => r.appName)).toEqual(["recent-app"]);
    expect(await db.clientVariantMetricsHourly.count({ where: { appName: "old-app" } })).toBe(0);
    expect(await db.clientInstance.count({ where: { appName: "old-app" } })).toBe(0);
    expect(await db.clientInstance.count({ where: { appName: "recent-app" } })).toBe(1);
    expect(await db.unknownFlag.findMany({ select: { name: true } })).toEqual([{ name: "fresh-ghost" }]);
    const listed = (await t.rest("GET", "/api/admin/metrics/unknown-flags")).body.unknownFlags;
    expect(listed.map((f: { name: string }) => f.name)).toEqual(["fresh-ghost"]);
    // The flag's own hourly totals (flag search) are not per application: they stay.
    expect(await db.featureMetricsHourly.count({ where: { featureName: "kept-flag" } })).toBe(2);
  });

  it("applications go after 30 days; at the cap, silent ones no admin described go at once", async () => {
    expect(await register("live-app", new Date())).toBe(202);
    expect(await register("ancient-app", ago(31 * 24 * HOUR))).toBe(202);
    const described = await withClock(t, ago(72 * HOUR), () =>
      t.rest("POST", "/api/admin/metrics/applications/described-app", { description: "billing batch" }),
    );
    expect(described.status).toBeLessThan(300);
    // A flood of made-up names, three days ago: as many as the cap lets in.
    for (let i = 0; i < 5; i++) expect(await register(`flood-${i}`, ago(72 * HOUR))).toBe(202);

    await pruneClientMetricsOnce(t.deps);
    const names = await appNames();
    expect(names).toEqual(expect.arrayContaining(["described-app", "live-app"]));
    expect(names.filter((n) => n === "ancient-app" || n.startsWith("flood-"))).toEqual([]);
    // The room is back at once: a new application is kept again.
    expect(await register("after-flood", new Date())).toBe(202);
    expect(await appNames()).toContain("after-flood");
  });
});
