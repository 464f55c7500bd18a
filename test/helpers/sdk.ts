import type { TestApp } from "./app.ts";

type Toggles = Record<string, { yes: number; no: number; variants?: Record<string, number> }>;

/**
 * Reports one metrics bucket as an SDK does (`POST /api/client/metrics`), ending at the app's
 * clock; returns the HTTP status. Apps made with VEXIL_METRICS_FLUSH_MS=0 store it before answering.
 */
export async function reportMetrics(
  t: TestApp,
  token: string,
  toggles: Toggles,
  options: { appName?: string; instanceId?: string } = {},
): Promise<number> {
  const { appName = "web", instanceId = `${appName}-1` } = options;
  const stop = t.deps.now();
  const start = new Date(stop.getTime() - 60_000);
  const bucket = { start: start.toISOString(), stop: stop.toISOString(), toggles: withVariants(toggles) };
  const res = await t.rest("POST", "/api/client/metrics", { appName, instanceId, bucket }, token);
  return res.status;
}

function withVariants(toggles: Toggles) {
  return Object.fromEntries(
    Object.entries(toggles).map(([name, counts]) => [name, { variants: {}, ...counts }]),
  );
}
