import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.ts";
import { createInProcessBus } from "../../src/events/bus.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { apiToken, createFlags, sdkBucket } from "../helpers/builders.ts";

/**
 * Many SDK instances reporting at once to two app nodes sharing one database (each node its
 * own metrics buffer). On PostgreSQL (TEST_DATABASE_URL) the two nodes' batch transactions
 * really overlap; the counts must still add up exactly.
 */
let t: TestApp;
let secondNode: App;
let secondDeps: TestApp["deps"];
let secret: string;
const T0 = new Date("2026-03-01T10:15:00.000Z");
const FLAGS = ["c-alpha", "c-beta", "c-gamma", "c-delta"];

beforeAll(async () => {
  t = await createTestApp({ VEXIL_METRICS_FLUSH_MS: "0" });
  t.setNow(T0);
  await createFlags(t, FLAGS);
  secret = await apiToken(t, "client", "development", ["*"]);
  secondDeps = { ...t.deps, bus: createInProcessBus() };
  secondNode = createApp(secondDeps);
});
afterAll(async () => {
  await secondDeps?.bus.close();
  await t?.close();
});

const post = async (app: App, body: unknown): Promise<Response> =>
  app.fetch("http://vexil.test/api/client/metrics", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: secret },
    body: JSON.stringify(body),
  });

describe("concurrent SDK reports", () => {
  it("100 reports from 20 instances over two nodes: every count is stored exactly once", async () => {
    const reports = Array.from({ length: 100 }, (_, i) =>
      sdkBucket(
        i % 2 === 0 ? "shop" : "admin-ui",
        `instance-${i % 20}`,
        // Flags in a different order per report, so the batches meet rows in different orders.
        Object.fromEntries(
          (i % 3 === 0 ? [...FLAGS].reverse() : FLAGS).map((f) => [
            f,
            { yes: 1, no: 2, variants: { a: 1, b: 2 } },
          ]),
        ),
        T0,
      ),
    );
    const results = await Promise.all(reports.map((body, i) => post(i % 4 < 2 ? t.app : secondNode, body)));
    expect(results.map((r) => r.status)).toEqual(reports.map(() => 202));

    const db = t.database.prisma;
    for (const featureName of FLAGS) {
      const hourly = await db.featureMetricsHourly.findMany({ where: { featureName } });
      expect(hourly.map((h) => [h.environmentName, h.yes, h.no])).toEqual([["development", 100, 200]]);
      const perApp = await db.clientMetricsHourly.findMany({
        where: { featureName },
        orderBy: { appName: "asc" },
      });
      expect(perApp.map((r) => [r.appName, r.yes, r.no])).toEqual([
        ["admin-ui", 50, 100],
        ["shop", 50, 100],
      ]);
      const variants = await db.clientVariantMetricsHourly.groupBy({
        by: ["variant"],
        where: { featureName },
        _sum: { count: true },
        orderBy: { variant: "asc" },
      });
      expect(variants.map((v) => [v.variant, v._sum.count])).toEqual([
        ["a", 100],
        ["b", 200],
      ]);
      const stages = await db.featureLifecycle.findMany({ where: { featureName, stage: "pre-live" } });
      expect(stages).toHaveLength(1);
    }
    expect(await db.clientApplication.count()).toBe(2);
    expect(await db.clientInstance.count()).toBe(20);
  });

  it("buffered nodes: concurrent reports then a flush on each node add up exactly", async () => {
    const bufferedDeps = [
      {
        ...t.deps,
        config: { ...t.config, metrics: { ...t.config.metrics, flushMs: 60_000 } },
        bus: createInProcessBus(),
      },
      {
        ...t.deps,
        config: { ...t.config, metrics: { ...t.config.metrics, flushMs: 60_000 } },
        bus: createInProcessBus(),
      },
    ];
    const nodes = bufferedDeps.map((deps) => createApp(deps));
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        post(
          nodes[i % 2] as App,
          sdkBucket("batch-app", `b-${i % 6}`, { "c-alpha": { yes: 3, no: 0 } }, T0),
        ).then((r) => r.status),
      ),
    );
    expect(statuses.every((s) => s === 202)).toBe(true);
    await Promise.all(nodes.map((node) => node.scope.services.metricsIngestor.flush()));
    const row = await t.database.prisma.clientMetricsHourly.findMany({
      where: { featureName: "c-alpha", appName: "batch-app" },
    });
    expect(row.map((r) => r.yes)).toEqual([180]);
    for (const node of nodes) await node.close();
    for (const deps of bufferedDeps) await deps.bus.close();
  });
});

describe("caps under concurrent floods (issue 36.2)", () => {
  const cappedNode = (metrics: Partial<TestApp["config"]["metrics"]>) => {
    const deps = {
      ...t.deps,
      config: { ...t.config, metrics: { ...t.config.metrics, ...metrics } },
      bus: createInProcessBus(),
    };
    return { deps, app: createApp(deps) };
  };

  it("unknown flags over two nodes: every report answered, and the newest rows kept to the cap", async () => {
    const nodes = [cappedNode({ maxUnknownFlags: 20 }), cappedNode({ maxUnknownFlags: 20 })];
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const names = Array.from({ length: 10 }, (_, j) => [`flood-${i}-${j}`, { yes: 1, no: 0 }]);
        const node = nodes[i % 2] as (typeof nodes)[number];
        return post(node.app, sdkBucket("shop", "instance-0", Object.fromEntries(names), T0)).then(
          (r) => r.status,
        );
      }),
    );
    expect(statuses.every((s) => s === 202)).toBe(true);
    // Rows other batches were writing are skipped by a prune, so one more batch settles the cap.
    t.setNow(new Date(T0.getTime() + 60_000));
    try {
      const last = sdkBucket("shop", "instance-0", { "flood-last": { yes: 1, no: 0 } }, T0);
      expect((await post((nodes[0] as (typeof nodes)[number]).app, last)).status).toBe(202);
    } finally {
      t.setNow(T0);
    }
    const db = t.database.prisma;
    expect(await db.unknownFlag.count()).toBe(20);
    expect(await db.unknownFlag.count({ where: { name: "flood-last" } })).toBe(1);
    for (const node of nodes) {
      await node.app.close();
      await node.deps.bus.close();
    }
  });

  it("applications on one node: a burst of new names stops exactly at the cap", async () => {
    const db = t.database.prisma;
    const before = await db.clientApplication.count();
    const node = cappedNode({ maxApplications: before + 5 });
    const statuses = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const res = await node.app.fetch("http://vexil.test/api/client/register", {
          method: "POST",
          headers: { "content-type": "application/json", authorization: secret },
          body: JSON.stringify({ appName: `burst-${i}`, instanceId: "burst", strategies: [] }),
        });
        return res.status;
      }),
    );
    expect(statuses.every((s) => s === 202)).toBe(true);
    expect(await db.clientApplication.count()).toBe(before + 5);
    await node.app.close();
    await node.deps.bus.close();
  });
});
