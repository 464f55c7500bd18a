import { Unleash, UnleashEvents } from "unleash-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DeliveryWorker, startDeliveryWorker } from "../../src/jobs/delivery-worker.ts";
import { runReleasePlansOnce, startReleasePlans } from "../../src/jobs/release-plans.ts";
import { createListeningTestApp, type ListeningTestApp } from "../helpers/app.ts";
import { apiToken, createFlag, eventsOf, gqlOk } from "../helpers/builders.ts";
import { type Result, wsClient } from "../live/live-helpers.ts";
import { startReceiver } from "../live/receiver.ts";
import { rollout as rolloutTo } from "./fixtures.ts";

/**
 * Issue 41's "done when": a real unleash-client app evaluates a flag under a release plan
 * (1 % → 25 % → 100 %, a second each) and reports an error counter through `impactMetrics`; the
 * plan moves on by itself while errors are low; once the app reports errors above the
 * threshold, the plan pauses and rolls back to 25 %, the SDK sees it through streaming, and the
 * event log, a webhook receiver and a GraphQL subscription all show the trip with its numbers.
 * The evaluation pass runs every 100 ms (the server's timer, VEXIL_RELEASE_PLANS_INTERVAL_MS);
 * the waits below poll for state, none sleeps for a fixed time.
 */
const FLAG = "guarded-checkout";
const TARGET = `project: "default", feature: "${FLAG}", environment: "development"`;
let t: ListeningTestApp;
let sdk: Unleash;
let worker: DeliveryWorker;
let stopPlans: () => void;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

const rollout = (percent: number) => rolloutTo(percent, FLAG);

/** Resolves when `check` holds, asked every 50 ms (at most `ms`). */
async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 15_000,
) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${check.toString().slice(0, 120)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The rollout the SDK evaluates the flag with (from its streamed configuration). */
const sdkRollout = () => sdk.getFeatureToggleDefinition(FLAG)?.strategies?.[0]?.parameters?.rollout;

type Plan = { state: string; version: number; activeMilestone: { name: string } | null; pauseReason: any };
const PLAN = "state version activeMilestone { name } pauseReason";

beforeAll(async () => {
  t = await createListeningTestApp({ VEXIL_METRICS_FLUSH_MS: "0", VEXIL_WORKER_POLL_MS: "100" });
  receiver = await startReceiver();
  const res = await t.rest("POST", "/api/admin/addons", {
    provider: "webhook",
    parameters: { url: `${receiver.url}/trips` },
    events: ["safeguard-triggered"],
  });
  expect(res.status).toBe(201);
  worker = startDeliveryWorker(t.deps);
  await createFlag(t, FLAG, { enabledIn: ["development"] });
  const secret = await apiToken(t, "client", "development", ["*"]);
  sdk = new Unleash({
    url: `${t.url}/api/`,
    appName: "checkout",
    customHeaders: { Authorization: secret },
    refreshInterval: 600_000, // changes can only arrive on the stream
    metricsInterval: 100,
    experimentalMode: { type: "streaming" },
  });
  sdk.on(UnleashEvents.Error, () => undefined);
  sdk.on(UnleashEvents.Warn, () => undefined);
  await new Promise((resolve) => sdk.once(UnleashEvents.Synchronized, resolve));
  sdk.impactMetrics.defineCounter("http_errors", "HTTP 5xx answers");
  // The counter reports (zero) from the first interval on: the metric is known before a safeguard names it.
  await eventually(async () => {
    const data = await gqlOk(t, `{ impactMetrics(environment: "development") { name } }`);
    return data.impactMetrics.some((m: { name: string }) => m.name === "http_errors");
  });
}, 120_000);

afterAll(async () => {
  stopPlans?.();
  sdk?.destroy();
  await worker?.stop();
  await receiver?.close();
  await t?.close();
});

describe("a guarded release with a real unleash-client", () => {
  it("advances while errors are low, then pauses and rolls back when they rise; everyone sees the trip", async () => {
    const template = await gqlOk(
      t,
      `mutation($input: ReleaseTemplateInput!) { createReleaseTemplate(input: $input) { databaseId } }`,
      {
        input: {
          name: "1-25-100",
          milestones: [
            { name: "1 %", strategies: [rollout(1)], afterSeconds: 1 },
            { name: "25 %", strategies: [rollout(25)], afterSeconds: 1 },
            { name: "100 %", strategies: [rollout(100)] },
          ],
        },
      },
    );
    const safeguard = {
      metricName: "http_errors",
      aggregationMode: "count",
      operator: ">",
      threshold: 5,
      windowSeconds: 60,
    };

    // Follow the plan live from before it exists.
    const ws = wsClient(t.url);
    const seen: { plan: Plan | null; at: number }[] = [];
    const unsubscribe = ws.subscribe<{ releasePlan: Plan | null }>(
      { query: `subscription { releasePlan(${TARGET}) { ${PLAN} } }` },
      {
        next: (r: Result<{ releasePlan: Plan | null }>) =>
          seen.push({ plan: r.data?.releasePlan ?? null, at: Date.now() }),
        error: () => undefined,
        complete: () => undefined,
      },
    );
    await eventually(() => seen.length > 0);

    // What the SDK evaluates with, each time its stream changes it (the flag starts at the default 100 %;
    // a change in between with no strategy yet is not a rollout).
    const sdkRollouts: unknown[] = [];
    sdk.on(UnleashEvents.Changed, () => {
      const now = sdkRollout();
      if (now !== undefined && now !== sdkRollouts.at(-1)) sdkRollouts.push(now);
    });
    await gqlOk(
      t,
      `mutation($tpl: String!, $sg: [SafeguardInput!]) {
        applyReleaseTemplate(${TARGET}, template: $tpl, safeguards: $sg, start: true) { state } }`,
      { tpl: template.createReleaseTemplate.databaseId, sg: [safeguard] },
    );
    stopPlans = startReleasePlans(t.deps, 100);

    // Errors stay at zero: 1 % → 25 % → 100 % by itself, and the SDK follows on its stream.
    const running = await eventually(async () => {
      const plan = (await gqlOk(t, `{ releasePlan(${TARGET}) { ${PLAN} } }`)).releasePlan as Plan;
      return plan.activeMilestone?.name === "100 %" && plan;
    });
    expect(running.state).toBe("ACTIVE");
    await eventually(() => sdkRollouts.join() === "1,25,100");
    expect(sdk.isEnabled(FLAG, { userId: "anyone" })).toBe(true);

    // The app starts failing: 12 errors in the window, over the threshold of 5.
    const failingSince = Date.now();
    sdk.impactMetrics.incrementCounter("http_errors", 12);
    await eventually(() => sdkRollouts.join() === "1,25,100,25");
    // Within the window plus 5 s (the window is a minute; here it takes a few hundred ms).
    expect(Date.now() - failingSince).toBeLessThan(60_000 + 5_000);

    const paused = (await gqlOk(t, `{ releasePlan(${TARGET}) { ${PLAN} } }`)).releasePlan as Plan;
    expect(paused).toMatchObject({ state: "PAUSED", activeMilestone: { name: "25 %" } });
    expect(paused.pauseReason).toMatchObject({
      value: 12,
      safeguard: { threshold: 5, metricName: "http_errors" },
    });

    // The event log: one trip, with its numbers.
    const trips = await eventsOf(t, ["safeguard-triggered"]);
    expect(trips).toHaveLength(1);
    expect(trips[0]).toMatchObject({
      featureName: FLAG,
      environment: "development",
      data: { value: 12, safeguard: { operator: ">", threshold: 5, windowSeconds: 60 } },
    });

    // The webhook receiver gets the same event.
    await receiver.until((all) => all.some((r) => r.path === "/trips"));
    const hook = JSON.parse(receiver.received.find((r) => r.path === "/trips")?.body ?? "{}");
    expect(hook).toMatchObject({ type: "safeguard-triggered", featureName: FLAG, data: { value: 12 } });

    // The subscription saw the plan pause, within a second of the trip's commit.
    const trip = await eventually(() => seen.find((s) => s.plan?.state === "PAUSED"));
    expect(trip.plan?.pauseReason).toMatchObject({ value: 12 });
    const tripEvent = await t.database.prisma.event.findFirstOrThrow({
      where: { type: "safeguard-triggered" },
    });
    expect(trip.at - tripEvent.createdAt.getTime()).toBeLessThan(1_000);
    expect(seen.map((s) => s.plan?.activeMilestone?.name ?? null)).toEqual(
      expect.arrayContaining([null, "1 %", "25 %", "100 %"]),
    );
    unsubscribe();
    await ws.dispose();

    // Paused: a pass neither moves it on nor trips it again (it is not even claimed).
    expect((await runReleasePlansOnce(t.deps)).size).toBe(0);
    expect(await eventsOf(t, ["safeguard-triggered"])).toHaveLength(1);
  });
});
