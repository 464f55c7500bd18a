import { OFREPProvider } from "@openfeature/ofrep-provider";
import { OpenFeature } from "@openfeature/server-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createListeningTestApp, type ListeningTestApp } from "../helpers/app.ts";
import { apiToken, createFlag, enableFlag } from "../helpers/builders.ts";

/**
 * OFREP evaluations count as SDK metrics (D-34): what OpenFeature's own server provider
 * evaluates shows in flag search (yes/no, last seen, lifecycle) and in the applications.
 */
let t: ListeningTestApp;
let productionToken: string;
beforeAll(async () => {
  // Metrics written before the report is acknowledged, so reads right after see them.
  t = await createListeningTestApp({ VEXIL_METRICS_FLUSH_MS: "0" });
  productionToken = await apiToken(t, "client", "production", ["*"], "checkout-service");
  await createFlag(t, "ofrep-counted");
  await enableFlag(t, "ofrep-counted", "production");
  await createFlag(t, "ofrep-named");
}, 60_000);
afterAll(async () => {
  await OpenFeature.close();
  await t?.close();
});

type SearchEnvironment = { name: string; yes: number; no: number; lastSeenAt: string | null };
async function searchItem(name: string) {
  const res = await t.rest("GET", `/api/admin/search/features?query=${name}`);
  expect(res.status).toBe(200);
  return (
    res.body as {
      features: {
        name: string;
        lastSeenAt: string | null;
        lifecycle: { stage: string };
        environments: SearchEnvironment[];
      }[];
    }
  ).features.find((f) => f.name === name);
}

describe("OpenFeature evaluations through @openfeature/ofrep-provider are SDK metrics", () => {
  it("50 evaluations: yes/no counts, last seen and the live stage, under an application named after the token", async () => {
    await OpenFeature.setProviderAndWait(
      "counted",
      new OFREPProvider({ baseUrl: t.url, headers: [["Authorization", productionToken]] }),
    );
    const client = OpenFeature.getClient("counted");
    for (let i = 0; i < 50; i++)
      await client.getBooleanValue("ofrep-counted", false, { targetingKey: `u${i}` });
    const item = await searchItem("ofrep-counted");
    expect(item?.lastSeenAt).not.toBeNull();
    expect(item?.lifecycle.stage).toBe("live");
    expect(item?.environments.find((e) => e.name === "production")).toMatchObject({
      yes: 50,
      no: 0,
      lastSeenAt: expect.any(String),
    });
    const app = await t.rest("GET", "/api/admin/metrics/instances/checkout-service/environment/production");
    expect(app.status).toBe(200);
    expect(app.body.instances).toEqual([
      expect.objectContaining({ instanceId: "ofrep", sdkVersion: "ofrep" }),
    ]);
  });

  it("the provider's unleash-appname header names the application; a flag that is off counts as no", async () => {
    await OpenFeature.setProviderAndWait(
      "named",
      new OFREPProvider({
        baseUrl: t.url,
        headers: [
          ["Authorization", productionToken],
          ["unleash-appname", "billing-web"],
        ],
      }),
    );
    const client = OpenFeature.getClient("named");
    for (let i = 0; i < 3; i++) expect(await client.getBooleanValue("ofrep-named", true)).toBe(false);
    const item = await searchItem("ofrep-named");
    expect(item?.environments.find((e) => e.name === "production")).toMatchObject({ yes: 0, no: 3 });
    const app = await t.rest("GET", "/api/admin/metrics/instances/billing-web/environment/production");
    expect(app.body.instances).toHaveLength(1);
  });
});
