import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { apiToken, createFlag, gqlOk, reportMetrics } from "../helpers/builders.ts";

/**
 * A public SDK token cannot make the server buffer and look up counts for any number of made-up
 * flag names (issue 36.2): names the node does not know pass up to
 * VEXIL_METRICS_UNKNOWN_FLAGS_PER_MINUTE a minute; known flags' counts always pass.
 */
let t: TestApp;
let secret: string;

beforeAll(async () => {
  t = await createTestApp({
    VEXIL_METRICS_FLUSH_MS: "0",
    VEXIL_METRICS_UNKNOWN_FLAGS_PER_MINUTE: "4",
  });
  await createFlag(t, "known-flag", { enabledIn: ["development"] });
  secret = await apiToken(t, "frontend", "development", ["*"]);
});
afterAll(() => t?.close());

const frontendReport = (toggles: Record<string, { yes: number; no: number }>) =>
  t.rest(
    "POST",
    "/api/frontend/client/metrics",
    {
      appName: "browser-app",
      instanceId: "tab-1",
      bucket: {
        start: new Date(Date.now() - 60_000).toISOString(),
        stop: new Date().toISOString(),
        toggles: Object.fromEntries(Object.entries(toggles).map(([n, c]) => [n, { ...c, variants: {} }])),
      },
    },
    secret,
  );

async function yesCount(name: string): Promise<number> {
  const data = await gqlOk<{ featureMetrics: { yes: number }[] }>(
    t,
    `query($name: String!) { featureMetrics(name: $name) { yes } }`,
    { name },
  );
  return data.featureMetrics.reduce((sum, row) => sum + row.yes, 0);
}

const unknownNames = async () =>
  ((await t.rest("GET", "/api/admin/metrics/unknown-flags")).body.unknownFlags as { name: string }[])
    .map((f) => f.name)
    .sort();

describe("unknown flag names per minute", () => {
  it("keeps the first names within the budget and drops the rest; known flags always count", async () => {
    const flood = Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [`made-up-${String(i).padStart(2, "0")}`, { yes: 1, no: 0 }]),
    );
    const res = await frontendReport({ ...flood, "known-flag": { yes: 3, no: 1 } });
    expect(res.status).toBe(200);
    expect(await unknownNames()).toEqual(["made-up-00", "made-up-01", "made-up-02", "made-up-03"]);
    expect(await yesCount("known-flag")).toBe(3);

    // The budget is used up: more made-up names are dropped, the known flag still counts.
    expect(
      (await frontendReport({ "another-made-up": { yes: 1, no: 0 }, "known-flag": { yes: 2, no: 0 } }))
        .status,
    ).toBe(200);
    expect(await unknownNames()).not.toContain("another-made-up");
    expect(await yesCount("known-flag")).toBe(5);
    // A name already let in this minute goes on counting (its row's last-seen moves).
    expect((await frontendReport({ "made-up-01": { yes: 1, no: 0 } })).status).toBe(200);
  });

  it("a flag created after the node read its flags counts while the budget lasts", async () => {
    const fresh = await createTestApp({ VEXIL_METRICS_FLUSH_MS: "0" });
    try {
      const client = await apiToken(fresh, "client", "development", ["*"]);
      await createFlag(fresh, "first-flag", { enabledIn: ["development"] });
      expect(await reportMetrics(fresh, client, { "first-flag": { yes: 1, no: 0 } })).toBe(202);
      await createFlag(fresh, "later-flag", { enabledIn: ["development"] });
      expect(await reportMetrics(fresh, client, { "later-flag": { yes: 4, no: 0 } })).toBe(202);
      const data = await gqlOk<{ featureMetrics: { yes: number }[] }>(
        fresh,
        `{ featureMetrics(name: "later-flag") { yes } }`,
      );
      expect(data.featureMetrics.reduce((sum, row) => sum + row.yes, 0)).toBe(4);
    } finally {
      await fresh.close();
    }
  });
});
