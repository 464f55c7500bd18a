import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInProcessBus } from "../../src/events/bus.ts";
import { recordEvent } from "../../src/events/record.ts";
import { type DeliveryWorker, startDeliveryWorker } from "../../src/jobs/delivery-worker.ts";
import { runWrite } from "../../src/shared/write.ts";
import { createTestApp, flagCreatedEvent, systemWriteContext, type TestApp } from "../helpers/app.ts";
import { createFlag, createProject } from "../helpers/builders.ts";
import { startReceiver } from "./receiver.ts";

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let worker: DeliveryWorker;
beforeAll(async () => {
  t = await createTestApp({
    VEXIL_WEBHOOK_RETRY_BASE_MS: "0",
    VEXIL_WEBHOOK_MAX_ATTEMPTS: "3",
    VEXIL_WEBHOOK_TIMEOUT_MS: "5000",
    VEXIL_WORKER_POLL_MS: "600000",
  });
  receiver = await startReceiver();
  await createProject(t, "other");
  // A worker on its own quiet bus: it runs only when the test calls drain().
  worker = startDeliveryWorker({ ...t.deps, bus: createInProcessBus() });
});
afterAll(async () => {
  await worker.stop();
  await receiver.close();
  await t.close();
});

async function addon(
  path: string,
  extra: Record<string, unknown> = {},
  parameters: Record<string, unknown> = {},
) {
  const res = await t.rest("POST", "/api/admin/addons", {
    provider: "webhook",
    parameters: { url: `${receiver.url}${path}`, ...parameters },
    events: ["feature-created"],
    ...extra,
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  // Later tests must not be fed by earlier addons: each test removes its addon at the end.
  return res.body.id as number;
}
async function remove(id: number) {
  expect((await t.rest("DELETE", `/api/admin/addons/${id}`)).status).toBe(200);
}
const log = async (id: number, query = "") =>
  (await t.rest("GET", `/api/admin/addons/${id}/events${query}`)).body;

describe("webhook delivery", () => {
  it("POSTs the event as JSON with the configured headers and logs the success", async () => {
    const id = await addon(
      "/json",
      {},
      {
        authorization: "Bearer hook-secret",
        customHeaders: JSON.stringify({ "X-Team": "flags" }),
      },
    );
    await createFlag(t, "hooked");
    expect(await worker.drain()).toBe(1);
    const hit = receiver.received.find((r) => r.path === "/json");
    expect(hit?.headers["content-type"]).toBe("application/json");
    expect(hit?.headers.authorization).toBe("Bearer hook-secret");
    expect(hit?.headers["x-team"]).toBe("flags");
    const body = JSON.parse(hit?.body ?? "{}");
    expect(body).toMatchObject({
      type: "feature-created",
      featureName: "hooked",
      project: "default",
      createdBy: "admin-token",
    });
    const { integrationEvents } = await log(id);
    expect(integrationEvents).toEqual([
      expect.objectContaining({
        id: expect.stringMatching(/^\d+$/),
        integrationId: id,
        state: "success",
        stateDetails: expect.stringContaining("Webhook request was successful with status code: 200."),
        event: expect.objectContaining({ id: body.id, type: "feature-created" }),
        details: { url: `${receiver.url}/json`, contentType: "application/json", body },
      }),
    ]);
    await remove(id);
  });

  it("renders the Mustache body template with event, eventJson and eventMarkdown", async () => {
    const template = '{"text": "{{eventMarkdown}}", "type": "{{event.type}}", "raw": {{{eventJson}}}}';
    const id = await addon(
      "/template",
      {},
      { bodyTemplate: template, contentType: "application/vnd.x+json" },
    );
    await createFlag(t, "templated");
    await worker.drain();
    const hit = receiver.received.find((r) => r.path === "/template");
    expect(hit?.headers["content-type"]).toBe("application/vnd.x+json");
    const body = JSON.parse(hit?.body ?? "{}");
    expect(body.type).toBe("feature-created");
    expect(body.raw).toMatchObject({ featureName: "templated" });
    expect(body.text).toContain("templated");
    expect(body.text).not.toContain("**");
    expect((await log(id)).integrationEvents[0].details.body).toBe(hit?.body);
    await remove(id);
  });

  it("delivers only to enabled addons whose events, projects and environments match", async () => {
    const seen = () =>
      receiver.received
        .filter((r) => r.path.startsWith("/match/"))
        .map((r) => r.path)
        .sort();
    const ids = [
      await addon("/match/all-projects", { events: ["feature-created", "feature-environment-enabled"] }),
      await addon("/match/other-only", { projects: ["other"] }),
      await addon("/match/star", { projects: ["*"], environments: ["*"] }),
      await addon("/match/production", {
        events: ["feature-environment-enabled"],
        environments: ["production"],
      }),
      await addon("/match/development", {
        events: ["feature-environment-enabled"],
        environments: ["development"],
      }),
      await addon("/match/disabled", { enabled: false }),
      await addon("/match/archived-only", { events: ["feature-archived"] }),
    ];
    await createFlag(t, "match-me", { enabledIn: ["production"] });
    await worker.drain();
    expect(seen()).toEqual([
      "/match/all-projects",
      "/match/all-projects",
      "/match/production",
      "/match/star",
    ]);
    await createFlag(t, "match-other", { project: "other" });
    await worker.drain();
    expect(seen().filter((p) => p === "/match/other-only")).toHaveLength(1);
    for (const id of ids) await remove(id);
  });

  it("writes no delivery for a rolled-back transaction", async () => {
    const id = await addon("/rolled-back");
    const before = await t.database.prisma.addonDelivery.count();
    // Direct write: no API call records an event and then rolls its transaction back.
    await expect(
      runWrite(systemWriteContext(t), async (w) => {
        await recordEvent(w, flagCreatedEvent("never"));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow();
    expect(await t.database.prisma.addonDelivery.count()).toBe(before);
    await remove(id);
  });

  it("retries a failing receiver with backoff and logs every attempt", async () => {
    const id = await addon("/flaky/2/retry");
    await createFlag(t, "flaky-flag");
    await worker.drain();
    const { integrationEvents } = await log(id);
    expect(integrationEvents.map((e: { state: string }) => e.state)).toEqual(["success", "failed", "failed"]);
    expect(integrationEvents[2].stateDetails).toMatch(
      /status code: 500\.\nAttempt 1 of 3\. Retrying in 0 ms\./,
    );
    expect(integrationEvents[0].stateDetails).toMatch(/Attempt 3 of 3\./);
    expect(receiver.received.filter((r) => r.path === "/flaky/2/retry")).toHaveLength(3);
    await remove(id);
  });

  it("gives up after the configured attempts, and at once on a client error", async () => {
    const down = await addon("/status/503");
    const gone = await addon("/status/410");
    await createFlag(t, "doomed");
    await worker.drain();
    expect((await log(down)).integrationEvents.map((e: { state: string }) => e.state)).toEqual([
      "failed",
      "failed",
      "failed",
    ]);
    expect((await log(down)).integrationEvents[0].stateDetails).toMatch(/Giving up\./);
    expect((await log(gone)).integrationEvents).toHaveLength(1);
    const rows = await t.database.prisma.addonDelivery.findMany({ where: { addonId: { in: [down, gone] } } });
    expect(rows.map((r) => r.status)).toEqual(["dead", "dead"]);
    await remove(down);
    await remove(gone);
  });

  it("sends without unparseable customHeaders and reports successWithErrors", async () => {
    const id = await addon("/bad-headers", {}, { customHeaders: "{not json" });
    await createFlag(t, "bad-headers");
    await worker.drain();
    const [entry] = (await log(id)).integrationEvents;
    expect(entry.state).toBe("successWithErrors");
    expect(entry.stateDetails).toMatch(/customHeaders/);
    await remove(id);
  });

  it("refuses to call a link-local address even when stored", async () => {
    const id = await addon("/ok");
    // Direct write: the API refuses to store a link-local URL; this checks the worker refuses it too.
    await t.database.prisma.addon.update({
      where: { id },
      data: { parameters: { url: "http://169.254.169.254/latest" } },
    });
    await createFlag(t, "metadata");
    await worker.drain();
    const [entry] = (await log(id)).integrationEvents;
    expect(entry).toMatchObject({
      state: "failed",
      stateDetails: expect.stringMatching(/link-local or metadata/),
    });
    await remove(id);
  });

  it("pages the log newest first with limit and offset", async () => {
    const id = await addon("/status/500");
    await createFlag(t, "paged");
    await worker.drain();
    const all = (await log(id)).integrationEvents;
    expect(all).toHaveLength(3);
    expect(all.map((e: { id: string }) => BigInt(e.id))).toEqual(
      all.map((e: { id: string }) => BigInt(e.id)).sort((a: bigint, b: bigint) => (a > b ? -1 : 1)),
    );
    expect((await log(id, "?limit=1&offset=1")).integrationEvents).toEqual([all[1]]);
    await remove(id);
  });

  it("hands each delivery to exactly one of two concurrent workers", async () => {
    const id = await addon("/concurrent");
    for (let i = 0; i < 12; i++) await createFlag(t, `concurrent-${i}`);
    const second = startDeliveryWorker({ ...t.deps, bus: createInProcessBus() });
    await Promise.all([worker.drain(), second.drain()]);
    await second.stop();
    const ids = receiver.received.filter((r) => r.path === "/concurrent").map((r) => JSON.parse(r.body).id);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    await remove(id);
  });
});
