import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, apiClient } from "../helpers/app.ts";
import { createFlag } from "../helpers/builders.ts";
import { type ServerProcess, startServerProcess as startServer } from "../helpers/server-process.ts";
import { serverStorage } from "./processes.ts";
import { startReceiver } from "./receiver.ts";

type Storage = Awaited<ReturnType<typeof serverStorage>>;
let storage: Storage;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  storage = await serverStorage();
  receiver = await startReceiver();
});
afterAll(async () => {
  for (const server of servers) await server.stop("SIGKILL");
  await receiver.close();
  await storage.drop();
});

const env = () => ({
  ...storage.env,
  INIT_ADMIN_API_TOKENS: ADMIN_TOKEN,
  INIT_ADMIN_PASSWORD: "Admin-Password-1",
  VEXIL_WEBHOOK_TIMEOUT_MS: "6000",
  VEXIL_WEBHOOK_RETRY_BASE_MS: "0",
  VEXIL_WORKER_POLL_MS: "100",
});

const api = (server: ServerProcess) => apiClient(fetch, server.url);

const eventIdsReceived = () => new Set(receiver.received.map((r) => JSON.parse(r.body).id as number));

describe("webhook delivery across a crash", () => {
  it("delivers every matching event at least once after SIGKILL with deliveries in flight and pending", async () => {
    const first = await startServer(env());
    servers.push(first);
    const created = await api(first).rest("POST", "/api/admin/addons", {
      provider: "webhook",
      parameters: { url: `${receiver.url}/crash` },
      events: ["feature-created"],
    });
    expect(created.status).toBe(201);
    const addonId = created.body.id as number;

    receiver.state.holding = true;
    for (let i = 0; i < 3; i++) await createFlag(api(first), `in-flight-${i}`);
    // The worker has sent all three and waits for answers that never come.
    await receiver.until((all) => eventIdsReceived().size === 3 && all.length >= 3);
    for (let i = 0; i < 2; i++) await createFlag(api(first), `pending-${i}`);
    await first.stop("SIGKILL");

    receiver.state.holding = false;
    const sentBefore = receiver.received.length;
    const second = await startServer(env());
    servers.push(second);
    const events = await api(second).gql<{ events: { edges: { node: { id: number } }[] } }>(
      '{ events(filter: { types: ["feature-created"] }) { edges { node { id: databaseId } } } }',
    );
    const expected = events.data?.events.edges.map((e) => e.node.id) ?? [];
    expect(expected).toHaveLength(5);
    // The second server sends all five: the interrupted ones once their attempt's lease runs out.
    const sentBySecond = (all: typeof receiver.received) =>
      new Set(all.slice(sentBefore).map((r) => JSON.parse(r.body).id as number));
    await receiver.until((all) => expected.every((id: number) => sentBySecond(all).has(id)));

    // The log shows each attempt: the interrupted ones, then the successful resends (each
    // written once its answer arrived).
    let log: { state: string; stateDetails: string; event: { id: number } }[] = [];
    await expect
      .poll(
        async () => {
          log = (await api(second).rest("GET", `/api/admin/addons/${addonId}/events`)).body.integrationEvents;
          return log.filter((e) => e.state === "success").length;
        },
        { timeout: 10_000 },
      )
      .toBe(5);
    const interrupted = log.filter((e) => /interrupted/.test(e.stateDetails));
    expect(interrupted.map((e) => e.event.id).sort()).toEqual(
      receiver.received
        .slice(0, 3)
        .map((r) => JSON.parse(r.body).id)
        .sort(),
    );
    expect(interrupted.every((e) => e.state === "failed")).toBe(true);
    const succeeded = log.filter((e) => e.state === "success").map((e) => e.event.id);
    expect([...succeeded].sort()).toEqual([...expected].sort());
    await second.stop("SIGTERM");
  }, 120_000);
});
