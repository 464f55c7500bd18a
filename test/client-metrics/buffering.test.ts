import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/modules/client-metrics/batch.logic.ts";
import { createMetricsIngestor } from "../../src/modules/client-metrics/ingestor.cache.ts";
import { SdkWritesRateLimited } from "../../src/modules/client-metrics/sdk-write-limits.cache.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { apiToken, createFlags, sdkBucket } from "../helpers/builders.ts";

/**
 * Buffered mode (the default, VEXIL_METRICS_FLUSH_MS > 0): a 202 means "in this node's
 * buffer"; the buffer is written as one batch later, or when the node shuts down. The
 * interval is an hour here so that only the explicit flush/close write.
 */
let t: TestApp;
let secret: string;
const T0 = new Date("2026-03-01T10:15:00.000Z");

beforeAll(async () => {
  t = await createTestApp({ VEXIL_METRICS_FLUSH_MS: "60000" });
  t.setNow(T0);
  await createFlags(t, ["buffered"]);
  secret = await apiToken(t, "client", "development", ["*"]);
});
afterAll(() => t?.close());

const stored = async () =>
  (
    await t.database.prisma.featureMetricsHourly.aggregate({
      where: { featureName: "buffered" },
      _sum: { yes: true },
    })
  )._sum.yes ?? 0;

describe("buffered SDK metrics", () => {
  it("are answered 202 at once and written together in one batch on flush", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await t.rest(
        "POST",
        "/api/client/metrics",
        sdkBucket("app", `i-${i}`, { buffered: { yes: 2, no: 1 } }, T0),
        secret,
      );
      expect(res.status).toBe(202);
    }
    expect(await stored()).toBe(0);
    await t.deps.services.metricsIngestor.flush();
    expect(await stored()).toBe(10);
    expect(await t.database.prisma.clientInstance.count({ where: { appName: "app" } })).toBe(5);
  });

  it("what is still buffered at shutdown is written by close()", async () => {
    const res = await t.rest(
      "POST",
      "/api/client/metrics",
      sdkBucket("app", "late", { buffered: { yes: 7, no: 0 } }, T0),
      secret,
    );
    expect(res.status).toBe(202);
    expect(await stored()).toBe(10);
    await t.deps.services.metricsIngestor.close();
    expect(await stored()).toBe(17);
  });

  it("the buffer is bounded: while its write waits, reports past 100,000 rows are refused (429) until it is written", async () => {
    // A buffer of its own. The reports all arrive in one turn of the event loop, so the
    // write the first 50,000 rows start cannot have got anywhere meanwhile.
    const ingestor = createMetricsIngestor(t.deps);
    const report = (n: number): Report => ({
      projects: ["*"],
      instance: {
        appName: "flood",
        instanceId: "i",
        environment: "development",
        sdkType: "backend",
        seenAt: T0,
      },
      bucket: {
        at: T0,
        toggles: Object.fromEntries(
          Array.from({ length: 10_000 }, (_, j) => [`flood-${n}-${j}`, { yes: 1, no: 0 }]),
        ),
      },
    });
    const added = Array.from({ length: 20 }, (_, n) => ingestor.add(report(n)));
    const outcomes = await Promise.allSettled(added);
    const refused = outcomes.map((o) => o.status === "rejected" && o.reason instanceof SdkWritesRateLimited);
    // 50,000 rows start a write; 100,000 more wait for it; the rest are refused.
    expect(refused.indexOf(true)).toBe(15);
    expect(refused.slice(15).every(Boolean)).toBe(true);
    expect(outcomes.slice(0, 15).every((o) => o.status === "fulfilled")).toBe(true);
    await ingestor.flush();
    await expect(ingestor.add(report(99))).resolves.toBeUndefined();
    await ingestor.close();
  }, 120_000);
});

describe("a batch holding a row the database refuses", () => {
  it("writes every other report and drops only that row (one bad report never costs another)", async () => {
    await createFlags(t, ["separated"]);
    const ingestor = t.deps.services.metricsIngestor;
    const report = (instanceId: string) => ({
      instance: {
        appName: "separating-app",
        instanceId,
        environment: "development",
        sdkType: "backend" as const,
        seenAt: T0,
      },
      projects: ["*"],
      bucket: { at: T0, toggles: { separated: { yes: 1, no: 0 } } },
    });
    // Past the HTTP layer, which refuses NUL (test/fuzz/sdk.test.ts): the store's own defence.
    const added = [report("bad\u0000instance"), ...Array.from({ length: 10 }, (_, i) => report(`good-${i}`))];
    await Promise.all(added.map((r) => ingestor.add(r)));
    await ingestor.flush();
    const instances = await t.database.prisma.clientInstance.findMany({
      where: { appName: "separating-app" },
    });
    expect(instances.map((i) => i.instanceId).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `good-${i}`).sort(),
    );
    const counted = await t.database.prisma.featureMetricsHourly.aggregate({
      where: { featureName: "separated" },
      _sum: { yes: true },
    });
    expect(counted._sum.yes).toBe(11);
    // Nothing of the refused row is left to fail the next batch.
    await ingestor.add(report("after"));
    await ingestor.flush();
    expect(await t.database.prisma.clientInstance.count({ where: { appName: "separating-app" } })).toBe(11);
  });
});
