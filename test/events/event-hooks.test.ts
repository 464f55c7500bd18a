import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_HOOKS } from "../../src/event-hooks.ts";
import { createInProcessBus } from "../../src/events/bus.ts";
import { type DeliveryWorker, startDeliveryWorker } from "../../src/jobs/delivery-worker.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createFlag, gqlOk } from "../helpers/builders.ts";
import { startReceiver } from "../live/receiver.ts";

// What the modules do in the transaction of every event (src/event-hooks.ts), seen through the
// public surfaces of an app built as every app is (createApp puts them in its scope): an app
// whose events miss one of them fails here.

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let worker: DeliveryWorker;
beforeAll(async () => {
  t = await createTestApp({ VEXIL_WEBHOOK_RETRY_BASE_MS: "0", VEXIL_WORKER_POLL_MS: "600000" });
  receiver = await startReceiver();
  // A worker on its own quiet bus: it runs only when the test calls drain().
  worker = startDeliveryWorker({ ...t.deps, bus: createInProcessBus() });
});
afterAll(async () => {
  await worker.stop();
  await receiver.close();
  await t.close();
});

const PAST_FLAG = `query($at: DateTime!) {
  featureAt(name: "hooked", at: $at) { lastEventId state { environments { name enabled } } }
}`;

describe("what every event brings with it (src/event-hooks.ts)", () => {
  it("is what createApp puts in the app's scope", () => {
    expect(t.deps.eventHooks).toBe(EVENT_HOOKS);
  });

  it("a toggle keeps the flag's tags, queues the webhook addon's delivery and the flag's history", async () => {
    const addon = await t.rest("POST", "/api/admin/addons", {
      provider: "webhook",
      parameters: { url: `${receiver.url}/hooked` },
      events: ["feature-environment-enabled"],
    });
    expect(addon.status).toBe(201);
    await createFlag(t, "hooked", { tags: [{ type: "simple", value: "hooks" }] });
    const on = await t.rest(
      "POST",
      "/api/admin/projects/default/features/hooked/environments/development/on",
    );
    expect(on.status).toBe(200);

    // The event: the flag's tags (features).
    const { events } = (await t.rest("GET", "/api/admin/events/hooked")).body;
    const toggle = events.find((e: { type: string }) => e.type === "feature-environment-enabled");
    expect(toggle).toMatchObject({ environment: "development", tags: [{ type: "simple", value: "hooks" }] });

    // Its outbox row (addons): one delivery, of that event.
    expect(await worker.drain()).toBe(1);
    const sent = receiver.received.filter((r) => r.path === "/hooked").map((r) => JSON.parse(r.body));
    expect(sent).toEqual([expect.objectContaining({ id: toggle.id, type: "feature-environment-enabled" })]);

    // Its history row (time travel): the flag's state right after it.
    const past = await gqlOk<{
      featureAt: { lastEventId: number; state: { environments: { name: string; enabled: boolean }[] } };
    }>(t, PAST_FLAG, { at: new Date().toISOString() });
    expect(past.featureAt.lastEventId).toBe(toggle.id);
    expect(past.featureAt.state.environments).toContainEqual({ name: "development", enabled: true });
  });
});
