import { OFREPProvider } from "@openfeature/ofrep-provider";
import { OFREPWebProvider } from "@openfeature/ofrep-web-provider";
import { OpenFeature as ServerOpenFeature } from "@openfeature/server-sdk";
import { ProviderEvents, OpenFeature as WebOpenFeature } from "@openfeature/web-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createListeningTestApp, type ListeningTestApp } from "../helpers/app.ts";
import { addStrategy, apiToken, createFlag, enableFlag, gqlOk } from "../helpers/builders.ts";

/** OpenFeature's own OFREP providers (server and web, run in Node) against a listening Vexil. */
let t: ListeningTestApp;
let clientToken: string;
let frontendToken: string;

/** A flag, given a variant with `payload` in development when asked. */
async function flag(name: string, payload?: { type: string; value: string }) {
  await createFlag(t, name);
  if (!payload) return;
  await gqlOk(
    t,
    `mutation($f: String!, $v: [EnvironmentVariantInput!]!) {
      setFeatureEnvironmentVariants(project: "default", feature: $f, environment: "development", variants: $v) { enabled } }`,
    {
      f: name,
      v: [{ name: `${name}-variant`, weight: 1000, weightType: "variable", stickiness: "default", payload }],
    },
  );
}
const enable = (name: string) => enableFlag(t, name, "development");

beforeAll(async () => {
  t = await createListeningTestApp();
  clientToken = await apiToken(t, "client", "development", ["*"]);
  frontendToken = await apiToken(t, "frontend", "development", ["*"]);
  await flag("bool-flag");
  await addStrategy(t, "bool-flag", {
    name: "flexibleRollout",
    parameters: { rollout: "100", stickiness: "default", groupId: "bool-flag" },
    constraints: [{ contextName: "plan", operator: "IN", values: ["pro"] }],
  });
  await enable("bool-flag");
  await flag("string-flag", { type: "string", value: "dark" });
  await flag("number-flag", { type: "number", value: "7" });
  await flag("object-flag", { type: "json", value: '{"limit":10}' });
  for (const name of ["string-flag", "number-flag", "object-flag"]) await enable(name);
  await flag("web-flag");
});
afterAll(async () => {
  await ServerOpenFeature.close();
  await WebOpenFeature.close();
  await t?.close();
});

describe("@openfeature/server-sdk with @openfeature/ofrep-provider", () => {
  it("evaluates boolean, string, number and object flags with reasons and variants", async () => {
    await ServerOpenFeature.setProviderAndWait(
      new OFREPProvider({ baseUrl: t.url, headers: [["Authorization", clientToken]] }),
    );
    const client = ServerOpenFeature.getClient();
    const pro = { targetingKey: "u1", plan: "pro" };
    const bool = await client.getBooleanDetails("bool-flag", false, pro);
    expect(bool).toMatchObject({ value: true, reason: "TARGETING_MATCH", variant: "on" });
    expect(
      (await client.getBooleanDetails("bool-flag", true, { targetingKey: "u1", plan: "free" })).value,
    ).toBe(false);
    expect(await client.getStringDetails("string-flag", "light", pro)).toMatchObject({
      value: "dark",
      variant: "string-flag-variant",
    });
    expect(await client.getNumberValue("number-flag", 0, pro)).toBe(7);
    expect(await client.getObjectValue("object-flag", {}, pro)).toEqual({ limit: 10 });
    // A boolean flag asked for a string: the code's default, with the SDK's TYPE_MISMATCH.
    const mismatch = await client.getStringDetails("bool-flag", "fallback", pro);
    expect(mismatch).toMatchObject({ value: "fallback", errorCode: "TYPE_MISMATCH" });
    const missing = await client.getBooleanDetails("no-such-flag", true, pro);
    expect(missing).toMatchObject({ value: true, errorCode: "FLAG_NOT_FOUND" });
  });
});

describe("@openfeature/web-sdk with @openfeature/ofrep-web-provider", () => {
  it("evaluates in bulk and picks up a change on its next poll", async () => {
    const provider = new OFREPWebProvider({
      baseUrl: t.url,
      headers: [["Authorization", frontendToken]],
      pollInterval: 100,
      cacheMode: "disabled",
      changeDetection: "polling",
    });
    await WebOpenFeature.setContext({ targetingKey: "u1", plan: "pro" });
    await WebOpenFeature.setProviderAndWait(provider);
    const client = WebOpenFeature.getClient();
    expect(client.getBooleanValue("bool-flag", false)).toBe(true);
    expect(client.getStringValue("string-flag", "light")).toBe("dark");
    expect(client.getNumberValue("number-flag", 0)).toBe(7);
    expect(client.getObjectValue("object-flag", {})).toEqual({ limit: 10 });
    expect(client.getBooleanDetails("web-flag", true)).toMatchObject({ value: false, reason: "DISABLED" });
    const changed = new Promise<void>((resolve) =>
      client.addHandler(ProviderEvents.ConfigurationChanged, () => resolve()),
    );
    await enable("web-flag");
    await changed;
    expect(client.getBooleanValue("web-flag", false)).toBe(true);
  });
});
