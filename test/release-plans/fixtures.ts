import { expect } from "vitest";
import { type TestApp, withClock } from "../helpers/app.ts";
import { gqlOk } from "../helpers/builders.ts";

/** What the release-plan tests share: strategies, a safeguard, SDK reports and reads. */

export const MINUTE = 60_000;

/** A minute boundary `minutes` ahead of the real clock, so a file's times are its own. */
export const minuteAhead = (minutes: number) => Math.floor(Date.now() / MINUTE) * MINUTE + minutes * MINUTE;

/** A milestone's strategy: a gradual rollout to `percent` %. */
export const rollout = (percent: number, groupId = "g") => ({
  name: "flexibleRollout",
  parameters: { rollout: String(percent), stickiness: "default", groupId },
});

/** A safeguard that trips on more than 5 errors (`http_errors`) in two minutes. */
export const ERRORS_GUARD = {
  metricName: "http_errors",
  aggregationMode: "count",
  operator: ">",
  threshold: 5,
  windowSeconds: 120,
};

/** The flag's strategies in `environment`, as their rollout percentages. */
export async function rollouts(t: TestApp, feature: string, environment: string): Promise<string[]> {
  const data = await gqlOk(
    t,
    `query($f: String!) { feature(name: $f) { environments { name strategies { parameters } } } }`,
    { f: feature },
  );
  const env = data.feature.environments.find((e: { name: string }) => e.name === environment);
  return env.strategies.map((s: { parameters: { rollout: string } }) => s.parameters.rollout);
}

/** An SDK's metrics report (unleash-client's shape) of `impactMetrics`, sent with the clock at `at`. */
export async function reportImpactMetrics(
  t: TestApp,
  sdkToken: string,
  at: Date | number,
  impactMetrics: unknown[],
) {
  const body = { appName: "shop", instanceId: "pod-1", impactMetrics };
  const res = await withClock(t, new Date(at), () => t.rest("POST", "/api/client/metrics", body, sdkToken));
  expect(res.status, JSON.stringify(res.body)).toBe(202);
}

/** `value` errors counted by the `http_errors` counter, reported at `at`. */
export const reportErrors = (t: TestApp, sdkToken: string, at: Date | number, value: number) =>
  reportImpactMetrics(t, sdkToken, at, [
    { name: "http_errors", help: "errors", type: "counter", samples: [{ labels: {}, value }] },
  ]);
