import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runReleasePlansOnce } from "../../src/jobs/release-plans.ts";
import { createTestApp, type TestApp, withClock } from "../helpers/app.ts";
import { apiToken, createFlag, gqlOk, recorded } from "../helpers/builders.ts";
import { MINUTE, minuteAhead, reportImpactMetrics, rollout } from "./fixtures.ts";

/**
 * A safeguard compared with the flag-off population (issue 41.3): unleash-client labels each
 * sample with the flag's value for that user (`flagNames`: `{<flag>: "enabled" | "disabled" |
 * <variant>}`); a `flagOff` baseline trips on how far the users who get the flag are above those
 * who do not, over the same window, read per observation (a histogram's avg or percentile, a
 * gauge's avg), since the two populations differ in size.
 */
let t: TestApp;
let sdk: string;
let templateId = "";
const BASE = minuteAhead(90);

const APPLY = `mutation($f: String!, $tpl: String!, $sg: [SafeguardInput!]) {
  applyReleaseTemplate(project: "default", feature: $f, environment: "development", template: $tpl,
    safeguards: $sg, start: true) { databaseId safeguards { baseline } } }`;
const latencyGuard = (threshold: number) => ({
  metricName: "latency_ms",
  aggregationMode: "avg",
  operator: ">",
  threshold,
  windowSeconds: 300,
  baseline: "flagOff",
});

/** A latency histogram sample of `count` requests averaging `avg` ms, with `labels`. */
const latency = (labels: Record<string, string>, count: number, avg: number) => ({
  labels,
  count,
  sum: count * avg,
  buckets: [
    { le: 100, count: avg <= 100 ? count : 0 },
    { le: "+Inf", count },
  ],
});

const report = (at: number, metrics: unknown[]) => reportImpactMetrics(t, sdk, at, metrics);
const latencies = (samples: unknown[]) => ({
  name: "latency_ms",
  help: "latency",
  type: "histogram",
  samples,
});

async function planWith(feature: string, at: number, safeguards: unknown[]) {
  await createFlag(t, feature);
  const data = await withClock(t, new Date(at), () =>
    gqlOk(t, APPLY, { f: feature, tpl: templateId, sg: safeguards }),
  );
  return data.applyReleaseTemplate.databaseId as string;
}

const passAt = (at: number) => withClock(t, new Date(at), () => runReleasePlansOnce(t.deps));

beforeAll(async () => {
  t = await createTestApp({ VEXIL_METRICS_FLUSH_MS: "0" });
  sdk = await apiToken(t, "client", "development", ["*"]);
  // The metrics exist before safeguards name them.
  await report(BASE - 30 * MINUTE, [
    latencies([latency({}, 1, 50)]),
    { name: "errors", help: "errors", type: "counter", samples: [{ labels: {}, value: 0 }] },
    { name: "queue_depth", help: "queue", type: "gauge", samples: [{ labels: {}, value: 3 }] },
  ]);
  const template = await gqlOk(
    t,
    `mutation($input: ReleaseTemplateInput!) { createReleaseTemplate(input: $input) { databaseId } }`,
    {
      input: {
        name: "two",
        milestones: [
          { name: "10 %", strategies: [rollout(10)] },
          { name: "50 %", strategies: [rollout(50)] },
        ],
      },
    },
  );
  templateId = template.createReleaseTemplate.databaseId;
});
afterAll(() => t?.close());

describe("a safeguard compared with the flag-off population", () => {
  it("trips on how far the flag's users are above the others, not on the reading itself, with both numbers", async () => {
    const t0 = BASE;
    const planId = await planWith("compared", t0, [latencyGuard(150)]);
    // Slow for everyone (400 ms with the flag, 380 without): the flag adds 20 ms, under 150.
    // Samples without the flag's label belong to neither population.
    await report(t0 + 1000, [
      latencies([
        latency({ compared: "enabled" }, 10, 400),
        latency({ compared: "disabled" }, 100, 380),
        latency({}, 50, 5000),
      ]),
    ]);
    expect((await passAt(t0 + 2000)).get(planId)).toBe("watched");
    // Now 40 more requests averaging 900 ms with the flag: (10·400 + 40·900) / 50 = 800 vs 380.
    await report(t0 + 3000, [latencies([latency({ compared: "enabled" }, 40, 900)])]);
    const { result, brief } = await recorded(t, () => passAt(t0 + 4000));
    expect(result.get(planId)).toBe("tripped");
    const own = brief.filter((e) => e.featureName === "compared");
    const triggered = own.find((e) => e.type === "safeguard-triggered");
    expect(triggered?.data).toMatchObject({
      value: 420,
      current: 800,
      baseline: 380,
      safeguard: { baseline: "flagOff", aggregationMode: "avg" },
    });
    const paused = own.find((e) => e.type === "release-plan-progressions-paused");
    expect(paused?.data?.reason).toBe(
      "safeguard tripped: latency_ms avg above the flag-off population 420 (800 with the flag, 380 without) > 150",
    );
  });

  it("does not trip while either population has no samples", async () => {
    const t0 = BASE + 20 * MINUTE;
    const planId = await planWith("one-sided", t0, [latencyGuard(10)]);
    await report(t0 + 1000, [latencies([latency({ "one-sided": "enabled" }, 10, 9000)])]);
    expect((await passAt(t0 + 2000)).get(planId)).toBe("watched");
    // A variant counts as getting the flag; still nobody without it.
    await report(t0 + 3000, [latencies([latency({ "one-sided": "blue" }, 10, 9000)])]);
    expect((await passAt(t0 + 4000)).get(planId)).toBe("watched");
    await report(t0 + 5000, [latencies([latency({ "one-sided": "disabled" }, 10, 100)])]);
    expect((await passAt(t0 + 6000)).get(planId)).toBe("tripped");
  });

  it("refuses a count, sum or rate, or a counter, and selectors naming the flag (400, nothing written); a gauge's avg is taken", async () => {
    await createFlag(t, "refused");
    const cases: [unknown, string][] = [
      [{ ...latencyGuard(1), aggregationMode: "count" }, "safeguards.0.baseline"],
      [{ ...latencyGuard(1), aggregationMode: "rps" }, "safeguards.0.baseline"],
      [{ ...latencyGuard(1), metricName: "errors", aggregationMode: "avg" }, "safeguards.0.baseline"],
      [{ ...latencyGuard(1), labelSelectors: { refused: ["enabled"] } }, "safeguards.0.labelSelectors"],
      [{ ...latencyGuard(1), baseline: "yesterday" }, "baseline"],
    ];
    for (const [guard, path] of cases) {
      const { result, events } = await recorded(t, () =>
        t.gql(APPLY, { f: "refused", tpl: templateId, sg: [guard] }),
      );
      const error = result.errors?.[0];
      expect(error?.extensions?.code, JSON.stringify(guard)).toBe("VALIDATION");
      expect(JSON.stringify(error?.extensions?.details)).toContain(path);
      expect(events).toEqual([]);
    }
    const gauge = { ...latencyGuard(1), metricName: "queue_depth" };
    const applied = await gqlOk(t, APPLY, { f: "refused", tpl: templateId, sg: [gauge] });
    expect(applied.applyReleaseTemplate.safeguards).toEqual([{ baseline: "flagOff" }]);
  });
});
