import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInProcessBus } from "../../src/events/bus.ts";
import { type DeliveryWorker, startDeliveryWorker } from "../../src/jobs/delivery-worker.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag } from "../helpers/builders.ts";
import { startReceiver } from "./receiver.ts";

/**
 * Slack, Microsoft Teams, Datadog and New Relic integrations deliver through the same outbox as
 * webhooks, each in the shape its service documents, here to a local receiver (issue 40.6).
 */
let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let worker: DeliveryWorker;
beforeAll(async () => {
  receiver = await startReceiver();
  t = await createTestApp({
    VEXIL_WEBHOOK_RETRY_BASE_MS: "0",
    VEXIL_WEBHOOK_MAX_ATTEMPTS: "2",
    VEXIL_WORKER_POLL_MS: "600000",
    VEXIL_SLACK_API_URL: `${receiver.url}/slack/`,
  });
  worker = startDeliveryWorker({ ...t.deps, bus: createInProcessBus() });
});
afterAll(async () => {
  await worker.stop();
  await receiver.close();
  await t.close();
});

async function addon(provider: string, parameters: Record<string, unknown>) {
  const res = await t.rest("POST", "/api/admin/addons", {
    provider,
    parameters,
    events: ["feature-created"],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}
const remove = async (id: number) =>
  expect((await t.rest("DELETE", `/api/admin/addons/${id}`)).status).toBe(200);
const log = async (id: number) =>
  (await t.rest("GET", `/api/admin/addons/${id}/events`)).body.integrationEvents;
const hitAt = (path: string) => receiver.received.filter((r) => r.path === path);

describe("integrations beyond webhooks", () => {
  it("are listed as providers with their parameters", async () => {
    const { providers } = (await t.rest("GET", "/api/admin/addons")).body;
    expect(providers.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(["webhook", "slack-app", "teamsworkflow", "datadog", "new-relic"]),
    );
  });

  it("delivers a flag event to Slack (one message per channel), Teams, Datadog and New Relic", async () => {
    const ids = [
      await addon("slack-app", { accessToken: "xoxb-secret", defaultChannels: "flags, releases" }),
      await addon("teamsworkflow", { url: `${receiver.url}/teams` }),
      await addon("datadog", { url: `${receiver.url}/datadog`, apiKey: "dd-key", sourceTypeName: "vexil" }),
      await addon("new-relic", { url: `${receiver.url}/newrelic`, licenseKey: "nr-key" }),
    ];
    await createFlag(t, "integrated");
    expect(await worker.drain()).toBe(4);

    const slack = hitAt("/slack/chat.postMessage");
    expect(slack.map((r) => JSON.parse(r.body).channel)).toEqual(["flags", "releases"]);
    expect(slack[0]?.headers.authorization).toBe("Bearer xoxb-secret");
    expect(JSON.parse(slack[0]?.body ?? "{}").text).toContain("integrated");

    const [teams] = hitAt("/teams");
    const card = JSON.parse(teams?.body ?? "{}");
    expect(card.type).toBe("message");
    expect(card.attachments[0].content.body[0].text).toContain("integrated");

    const [datadog] = hitAt("/datadog");
    expect(datadog?.headers["dd-api-key"]).toBe("dd-key");
    expect(JSON.parse(datadog?.body ?? "{}")).toMatchObject({
      tags: ["type:feature-created", "project:default"],
      source_type_name: "vexil",
      text: expect.stringContaining("integrated"),
    });

    const [newRelic] = hitAt("/newrelic");
    expect(newRelic?.headers["api-key"]).toBe("nr-key");
    expect(JSON.parse(newRelic?.body ?? "[]")).toEqual([
      expect.objectContaining({
        eventType: "UnleashServiceEvent",
        unleashEventType: "feature-created",
        featureName: "integrated",
        project: "default",
      }),
    ]);

    const [slackLog] = await log(ids[0] as number);
    expect(slackLog.state).toBe("success");
    expect(slackLog.stateDetails.split("\n").slice(0, 2)).toEqual([
      "Slack request was successful with status code: 200.",
      "Slack request was successful with status code: 200.",
    ]);
    for (const id of ids) await remove(id);
  });

  it("logs a failed delivery with the service's name and retries it", async () => {
    const id = await addon("datadog", { url: `${receiver.url}/flaky/1/datadog`, apiKey: "dd-key" });
    await createFlag(t, "flaky-integrated");
    expect(await worker.drain()).toBeGreaterThanOrEqual(1);
    await worker.drain();
    const entries = await log(id);
    expect(
      entries.map((e: { state: string; stateDetails: string }) => [e.state, e.stateDetails.split("\n")[0]]),
    ).toEqual([
      ["success", "Datadog request was successful with status code: 200."],
      ["failed", "Datadog request failed with status code: 500."],
    ]);
    await remove(id);
  });

  it("refuses a configuration without its required parameters (400, nothing kept)", async () => {
    const res = await t.rest("POST", "/api/admin/addons", {
      provider: "new-relic",
      parameters: { url: `${receiver.url}/newrelic` },
      events: ["feature-created"],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/licenseKey/);
    expect((await t.rest("GET", "/api/admin/addons")).body.addons).toEqual([]);
  });
});
