import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Unleash, UnleashEvents } from "unleash-client";
import { EVENTS, UnleashClient } from "unleash-proxy-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../helpers/app.ts";
import {
  type Api,
  apiToken,
  createFlag,
  disableFlag,
  enableFlag,
  gqlOk,
  soleVariant,
} from "../helpers/builders.ts";
import { emptyPostgresDatabase } from "../helpers/postgres-url.ts";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.ts";

/**
 * The official SDKs against a started Vexil process: unleash-client (Node) polling and
 * streaming, unleash-proxy-client (browser SDK, run in Node) on the frontend API. Flags are
 * configured over GraphQL, as a team would.
 */
const ADMIN = "*:*.sdk-e2e-admin-secret";
let dataDir: string;
let postgres: Awaited<ReturnType<typeof emptyPostgresDatabase>>;
let server: ServerProcess;
let clientToken: string;
let frontendToken: string;
const sdks: { destroy(): void }[] = [];

let api: Api;
const enable = (feature: string) => enableFlag(api, feature, "development");
const disable = (feature: string) => disableFlag(api, feature, "development");

/** Resolves when `check` holds, re-checked on each of the SDK's `event`s. */
function until(
  emitter: { on(e: string, f: () => void): unknown; off?(e: string, f: () => void): unknown },
  event: string,
  check: () => boolean,
) {
  return new Promise<void>((resolve) => {
    if (check()) return resolve();
    const listener = () => {
      if (check()) {
        emitter.off?.(event, listener);
        resolve();
      }
    };
    emitter.on(event, listener);
  });
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "vexil-sdk-"));
  postgres = await emptyPostgresDatabase();
  server = await startServerProcess({
    INIT_ADMIN_API_TOKENS: ADMIN,
    INIT_ADMIN_PASSWORD: "Sdk-Test-Password-1",
    // A 202 for metrics means stored, so the SDK's `sent` event says they are readable.
    VEXIL_METRICS_FLUSH_MS: "0",
    VEXIL_DATA_DIR: join(dataDir, "data"),
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
  });
  api = apiClient(fetch, server.url, ADMIN);
  clientToken = await apiToken(api, "client", "development", ["*"]);
  frontendToken = await apiToken(api, "frontend", "development", ["*"]);
  await createFlag(api, "sdk-beta", {
    strategies: [
      {
        name: "flexibleRollout",
        parameters: { rollout: "100", stickiness: "default", groupId: "sdk-beta" },
        constraints: [{ contextName: "userId", operator: "IN", values: ["alice"] }],
        variants: [soleVariant("blue", { type: "string", value: "b" })],
      },
    ],
    enabledIn: ["development"],
  });
}, 120_000);

afterAll(async () => {
  for (const sdk of sdks) sdk.destroy();
  await server?.stop("SIGKILL");
  await postgres?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

function nodeSdk(mode?: "streaming") {
  const sdk = new Unleash({
    url: `${server.url}/api/`,
    appName: `vexil-e2e-${mode ?? "polling"}`,
    customHeaders: { Authorization: clientToken },
    // Streaming: polls too rarely to matter, so a change can only arrive on the stream.
    refreshInterval: mode ? 600_000 : 200,
    disableMetrics: true,
    ...(mode ? { experimentalMode: { type: mode } } : {}),
  });
  sdk.on(UnleashEvents.Error, () => undefined);
  sdks.push(sdk);
  return sdk;
}

describe("unleash-client (Node SDK)", () => {
  it("polling: evaluates flags configured over GraphQL", async () => {
    // Each test turns a flag of its own on and off: sdk-beta is only read.
    await createFlag(api, "sdk-live-polling");
    const sdk = nodeSdk();
    await new Promise((resolve) => sdk.once(UnleashEvents.Synchronized, resolve));
    expect(sdk.isEnabled("sdk-beta", { userId: "alice" })).toBe(true);
    expect(sdk.isEnabled("sdk-beta", { userId: "bob" })).toBe(false);
    expect(sdk.getVariant("sdk-beta", { userId: "alice" })).toMatchObject({
      name: "blue",
      enabled: true,
      payload: { type: "string", value: "b" },
    });
    expect(sdk.isEnabled("sdk-live-polling")).toBe(false);
    await enable("sdk-live-polling");
    await until(sdk, UnleashEvents.Changed, () => sdk.isEnabled("sdk-live-polling"));
    await disable("sdk-live-polling");
    await until(sdk, UnleashEvents.Changed, () => !sdk.isEnabled("sdk-live-polling"));
  });

  it("streaming: hydrated on connect, then each change arrives on the stream", async () => {
    await createFlag(api, "sdk-live-streaming");
    const sdk = nodeSdk("streaming");
    await new Promise((resolve) => sdk.once(UnleashEvents.Synchronized, resolve));
    expect(sdk.isEnabled("sdk-beta", { userId: "alice" })).toBe(true);
    expect(sdk.isEnabled("sdk-live-streaming")).toBe(false);
    await enable("sdk-live-streaming");
    await until(sdk, UnleashEvents.Changed, () => sdk.isEnabled("sdk-live-streaming"));
    await disable("sdk-live-streaming");
    await until(sdk, UnleashEvents.Changed, () => !sdk.isEnabled("sdk-live-streaming"));
  });
});

describe("unleash-client metrics", () => {
  it("the counts the SDK sends appear as yes/no in flag search, and the application is listed", async () => {
    // Flag search counts the current hour's bucket, so what the SDK just sent shows at once.
    const sdk = new Unleash({
      url: `${server.url}/api/`,
      appName: "vexil-e2e-metrics",
      instanceId: "metrics-1",
      customHeaders: { Authorization: clientToken },
      refreshInterval: 600_000,
      metricsInterval: 50,
    });
    sdk.on(UnleashEvents.Error, () => undefined);
    sdks.push(sdk);
    await new Promise((resolve) => sdk.once(UnleashEvents.Synchronized, resolve));
    const sent = new Promise<void>((resolve) => {
      sdk.on(UnleashEvents.Sent, (payload: { bucket: { toggles: Record<string, unknown> } }) => {
        if (payload.bucket.toggles["sdk-beta"]) resolve();
      });
    });
    for (const userId of ["alice", "alice", "alice", "bob", "bob"]) sdk.isEnabled("sdk-beta", { userId });
    await sent;
    const res = await fetch(`${server.url}/api/admin/search/features?query=sdk-beta`, {
      headers: { authorization: ADMIN },
    });
    const flag = ((await res.json()) as { features: any[] }).features.find((f) => f.name === "sdk-beta");
    const development = flag.environments.find((e: { name: string }) => e.name === "development");
    expect(development).toMatchObject({ yes: 3, no: 2 });
    expect(development.lastSeenAt).not.toBeNull();
    const apps = await gqlOk(
      api,
      `{ clientApplication(appName: "vexil-e2e-metrics") {
      instances { instanceId environment sdkType sdkVersion strategies } seenFlags { featureName environments } } }`,
    );
    expect(apps.clientApplication.instances).toEqual([
      expect.objectContaining({
        instanceId: "metrics-1",
        environment: "development",
        sdkType: "backend",
        sdkVersion: expect.stringMatching(/^unleash-node-sdk:/),
        strategies: expect.arrayContaining(["default", "flexibleRollout"]),
      }),
    ]);
    expect(apps.clientApplication.seenFlags).toEqual([
      { featureName: "sdk-beta", environments: ["development"] },
    ]);
  });
});

describe("unleash-proxy-client (browser SDK) on the frontend API", () => {
  it("evaluates for its context and follows context and flag changes", async () => {
    await createFlag(api, "sdk-live-web");
    const client = new UnleashClient({
      url: `${server.url}/api/frontend`,
      clientKey: frontendToken,
      appName: "vexil-e2e-web",
      refreshInterval: 1,
      disableMetrics: true,
      context: { userId: "alice" },
    });
    sdks.push({ destroy: () => client.stop() });
    await new Promise<void>((resolve) => {
      client.on(EVENTS.READY, () => resolve());
      void client.start();
    });
    expect(client.isEnabled("sdk-beta")).toBe(true);
    expect(client.getVariant("sdk-beta")).toMatchObject({
      name: "blue",
      enabled: true,
      payload: { value: "b" },
    });
    await client.updateContext({ userId: "bob" });
    expect(client.isEnabled("sdk-beta")).toBe(false);
    expect(client.isEnabled("sdk-live-web")).toBe(false);
    await enable("sdk-live-web");
    await until(client, EVENTS.UPDATE, () => client.isEnabled("sdk-live-web"));
  });
});
