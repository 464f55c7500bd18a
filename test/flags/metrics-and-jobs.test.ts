import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markPotentiallyStaleOnce } from "../../src/jobs/potentially-stale.ts";
import { recordEvaluationMetrics } from "../../src/modules/features/evaluation-metrics.write.ts";
import { SYSTEM_ACTOR } from "../../src/shared/actor.ts";
import { runWrite } from "../../src/shared/write.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag, eventsAfter, lastEventId } from "../helpers/builders.ts";

let t: TestApp;
const T0 = new Date("2026-03-01T10:15:00.000Z");

beforeAll(async () => {
  t = await createTestApp();
  t.setNow(T0);
  await createFlag(t, "old-ops", { type: "operational" });
});
afterAll(() => t.close());

const metrics = (counts: Parameters<typeof recordEvaluationMetrics>[1]) =>
  runWrite({ ...t.deps, principal: null }, (w) => recordEvaluationMetrics(w, counts), {
    actor: SYSTEM_ACTOR,
  });

const LIFECYCLE = `query($f: String!) { feature(name: $f) { lastSeenAt lifecycle { stage enteredStageAt }
  environments { name lastSeenAt } } }`;

describe("evaluation metrics drive lifecycle and last-seen", () => {
  it("first metrics from development enter pre-live and set lastSeenAt, recording no event", async () => {
    await createFlag(t, "first-seen");
    const before = await lastEventId(t);
    const entered = await metrics({
      featureName: "first-seen",
      environment: "development",
      yes: 3,
      no: 1,
      at: new Date("2026-03-01T10:05:00Z"),
    });
    expect(entered).toEqual(["pre-live"]);
    const res = await t.gql(LIFECYCLE, { f: "first-seen" });
    expect(res.data?.feature).toEqual({
      lastSeenAt: "2026-03-01T10:05:00.000Z",
      lifecycle: { stage: "pre-live", enteredStageAt: T0.toISOString() },
      environments: [
        { name: "development", lastSeenAt: "2026-03-01T10:05:00.000Z" },
        { name: "production", lastSeenAt: null },
      ],
    });
    expect(await eventsAfter(t, before)).toEqual([]);
  });

  it("adds counts to the hour bucket", async () => {
    await createFlag(t, "counted");
    const at = (time: string) => new Date(`2026-03-01T${time}:00Z`);
    await metrics({ featureName: "counted", environment: "development", yes: 3, no: 1, at: at("10:05") });
    await metrics({ featureName: "counted", environment: "development", yes: 2, no: 5, at: at("10:55") });
    const bucket = await t.database.prisma.featureMetricsHourly.findMany({
      where: { featureName: "counted" },
    });
    expect(bucket).toEqual([
      expect.objectContaining({
        environmentName: "development",
        hour: new Date("2026-03-01T10:00:00Z"),
        yes: 5,
        no: 6,
      }),
    ]);
  });

  it("production metrics enter live only while the flag is on there", async () => {
    await createFlag(t, "goes-live");
    const counts = { featureName: "goes-live", yes: 1, no: 0, at: T0 };
    expect(await metrics({ ...counts, environment: "development" })).toEqual(["pre-live"]);
    expect(await metrics({ ...counts, environment: "production" })).toEqual([]);
    const on = await t.rest(
      "POST",
      "/api/admin/projects/default/features/goes-live/environments/production/on",
    );
    expect(on.status).toBe(200);
    expect(await metrics({ ...counts, environment: "production" })).toEqual(["live"]);
    const res = await t.gql<{ feature: { lifecycle: { stage: string } } }>(LIFECYCLE, { f: "goes-live" });
    expect(res.data?.feature.lifecycle.stage).toBe("live");
  });

  it("ignores unknown flags and environments", async () => {
    expect(await metrics({ featureName: "nope", environment: "development", yes: 1, no: 1, at: T0 })).toEqual(
      [],
    );
    await createFlag(t, "ignoring");
    expect(await metrics({ featureName: "ignoring", environment: "staging", yes: 1, no: 1, at: T0 })).toEqual(
      [],
    );
  });
});

describe("the potentially-stale job", () => {
  it("marks each flag once even when two nodes run it at the same moment", async () => {
    t.setNow(new Date(T0.getTime() + 8 * 24 * 60 * 60 * 1000));
    try {
      const before = await lastEventId(t);
      const [a, b] = await Promise.all([markPotentiallyStaleOnce(t.deps), markPotentiallyStaleOnce(t.deps)]);
      expect([...a, ...b]).toEqual(["old-ops"]);
      const events = await eventsAfter(t, before);
      expect(events.map((e) => [e.type, e.featureName])).toEqual([
        ["feature-potentially-stale-on", "old-ops"],
      ]);
      expect(await markPotentiallyStaleOnce(t.deps)).toEqual([]);
    } finally {
      t.setNow(T0);
    }
  });
});
