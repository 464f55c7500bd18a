import type { TestApp } from "./app.ts";

/**
 * The app's `/metrics`, read once with the admin token: `value(series)` is the number on the line
 * of `series`, a metric's name with its labels as Prometheus' format prints them (for example
 * `vexil_sdk_cache_bytes{cache="documents"}`). A series that is not there throws.
 */
export async function readMetrics(t: Pick<TestApp, "rest">): Promise<(series: string) => number> {
  const { status, body } = await t.rest("GET", "/metrics");
  if (status !== 200) throw new Error(`/metrics answered ${status}`);
  const values = new Map(
    String(body)
      .split("\n")
      .filter((line) => line && !line.startsWith("#"))
      .map((line) => [line.slice(0, line.lastIndexOf(" ")), line.slice(line.lastIndexOf(" ") + 1)]),
  );
  return (series) => {
    const value = values.get(series);
    if (value === undefined) throw new Error(`/metrics has no ${series}`);
    return Number(value);
  };
}
