import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, withClock } from "../helpers/app.ts";
import { apiToken, createFlag, gqlOk, reportMetrics } from "../helpers/builders.ts";

/**
 * What one SDK token can make Vexil keep is bounded (issue 36.2): names per report, the length
 * of every name, and the number of applications, SDK instances and unknown-flag rows. Caps are
 * tiny here. Three applications with one instance each fill the application cap first.
 */
let t: TestApp;
let secret: string;
const KEPT_APPS = ["keep-1", "keep-2", "keep-3"];

beforeAll(async () => {
  t = await createTestApp({
    VEXIL_METRICS_FLUSH_MS: "0",
    VEXIL_METRICS_MAX_FLAGS: "10",
    VEXIL_METRICS_MAX_APPLICATIONS: "3",
    VEXIL_METRICS_MAX_INSTANCES: "5",
    VEXIL_METRICS_MAX_UNKNOWN_FLAGS: "5",
  });
  await createFlag(t, "capped-flag", { enabledIn: ["development"] });
  secret = await apiToken(t, "client", "development", ["*"]);
  for (const appName of KEPT_APPS) expect(await register(appName, `${appName}-1`)).toBe(202);
});
afterAll(() => t?.close());

const register = async (appName: string, instanceId: string, extra: Record<string, unknown> = {}) =>
  (await t.rest("POST", "/api/client/register", { appName, instanceId, strategies: [], ...extra }, secret))
    .status;

async function countedFor(appName: string): Promise<number> {
  const data = await gqlOk<{ featureMetrics: { yes: number }[] }>(
    t,
    `query($app: String) { featureMetrics(name: "capped-flag", appName: $app) { yes } }`,
    { app: appName },
  );
  return data.featureMetrics.reduce((sum, row) => sum + row.yes, 0);
}

const unknownNames = async () =>
  ((await t.rest("GET", "/api/admin/metrics/unknown-flags")).body.unknownFlags as { name: string }[])
    .map((f) => f.name)
    .sort();

describe("caps on what SDK reports keep", () => {
  it("a new application beyond VEXIL_METRICS_MAX_APPLICATIONS is not kept; known ones go on", async () => {
    expect(await register("newcomer", "newcomer-1")).toBe(202);
    expect(
      await reportMetrics(t, secret, { "capped-flag": { yes: 2, no: 0 } }, { appName: "newcomer" }),
    ).toBe(202);
    const apps = await t.rest("GET", "/api/admin/metrics/applications");
    expect(apps.body.applications.map((a: { appName: string }) => a.appName)).toEqual(KEPT_APPS);
    expect(await countedFor("newcomer")).toBe(0);

    const before = await countedFor("keep-1");
    expect(await reportMetrics(t, secret, { "capped-flag": { yes: 2, no: 0 } }, { appName: "keep-1" })).toBe(
      202,
    );
    expect(await countedFor("keep-1")).toBe(before + 2);
  });

  it("a new instance beyond VEXIL_METRICS_MAX_INSTANCES is not recorded; its counts are", async () => {
    expect(await register("keep-2", "extra-1")).toBe(202);
    expect(await register("keep-2", "extra-2")).toBe(202);
    expect(await register("keep-2", "extra-3")).toBe(202);
    const before = await countedFor("keep-2");
    const options = { appName: "keep-2", instanceId: "extra-3" };
    expect(await reportMetrics(t, secret, { "capped-flag": { yes: 3, no: 0 } }, options)).toBe(202);
    const app = await gqlOk<{ clientApplication: { instances: { instanceId: string }[] } }>(
      t,
      `{ clientApplication(appName: "keep-2") { instances { instanceId } } }`,
    );
    expect(app.clientApplication.instances.map((i) => i.instanceId)).toEqual([
      "extra-1",
      "extra-2",
      "keep-2-1",
    ]);
    expect(await countedFor("keep-2")).toBe(before + 3);
  });

  it("unknown flags beyond VEXIL_METRICS_MAX_UNKNOWN_FLAGS: the least recently seen go first", async () => {
    const t0 = new Date();
    const report = (names: string[], at: Date) =>
      withClock(t, at, () =>
        reportMetrics(t, secret, Object.fromEntries(names.map((n) => [n, { yes: 1, no: 0 }])), {
          appName: "keep-3",
        }),
      );
    expect(await report(["u-a", "u-b", "u-c"], t0)).toBe(202);
    expect(await report(["u-d", "u-e", "u-f", "u-g"], new Date(t0.getTime() + 60_000))).toBe(202);
    expect(await t.database.prisma.unknownFlag.count()).toBe(5);
    expect(await unknownNames()).toEqual(["u-a", "u-d", "u-e", "u-f", "u-g"]);

    // One report naming more unknown flags than the cap keeps the cap's worth of them.
    const many = Array.from({ length: 8 }, (_, i) => `v-${i}`);
    expect(await report(many, new Date(t0.getTime() + 120_000))).toBe(202);
    expect(await t.database.prisma.unknownFlag.count()).toBe(5);
    expect(await unknownNames()).toEqual(["v-0", "v-1", "v-2", "v-3", "v-4"]);
  });

  it("a report naming more flags than VEXIL_METRICS_MAX_FLAGS is refused whole", async () => {
    const toggles = Object.fromEntries(
      Array.from({ length: 11 }, (_, i) => [`too-many-${i}`, { yes: 1, no: 0 }]),
    );
    expect(await reportMetrics(t, secret, toggles, { appName: "keep-1" })).toBe(400);
    expect(await t.database.prisma.unknownFlag.count({ where: { name: { startsWith: "too-many-" } } })).toBe(
      0,
    );
  });

  it.each(["appName", "instanceId", "environment", "sdkVersion", "platformName"])(
    "a %s longer than 255 characters is refused (400), nothing kept",
    async (field) => {
      const long = "x".repeat(256);
      const res = await t.rest(
        "POST",
        "/api/client/register",
        { appName: "keep-1", instanceId: "long-1", [field]: long },
        secret,
      );
      expect(res.status).toBe(400);
      expect(
        await t.database.prisma.clientInstance.count({ where: { instanceId: { in: ["long-1", long] } } }),
      ).toBe(0);
    },
  );
});
