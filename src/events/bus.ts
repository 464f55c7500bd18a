import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { Logger } from "../shared/logger.ts";
import { createRedisClient } from "../shared/redis-client.ts";
import type { StoredEvent } from "./types.ts";

/**
 * Tells every node that events were committed. A notice carries only an event id (and whether
 * remembered state, API tokens or settings, changed) and is a wake-up hint, never the event itself: it may be repeated, arrive out of id order, or be
 * lost (a node dying between commit and publish). Readers therefore read the events from the
 * database in id order behind a committed high-water mark (src/modules/live/feed.live.ts) and also
 * poll now and then, which makes a lost or duplicated notice harmless.
 */
export type EventBus = {
  /** Called after commit (src/shared/write.ts) with each committed event; never blocks. */
  publish(event: StoredEvent): void;
  /**
   * Calls `listener` on every notice from any node; returns the unsubscribe function. A notice
   * of this node's own commit also carries the committed event. `rememberedChanged` is true
   * when the notice covers an event that changes what nodes keep in memory (API tokens,
   * settings), and for a resync: anything may have.
   */
  listen(listener: Listener): () => void;
  /**
   * Tells every node, this one included, that credentials ended or changed without an event
   * saying so (a logout, a password change ending sessions): open streams check theirs again.
   * Call it after the change is committed.
   */
  publishAccessChange(): void;
  /** Calls `listener` on every access notice from any node; returns the unsubscribe function. */
  listenAccessChange(listener: () => void): () => void;
  close(): Promise<void>;
};

type Listener = (eventId: bigint, committedHere: StoredEvent | undefined, rememberedChanged: boolean) => void;

/**
 * Events that change what a node remembers: what an API token secret stands for, and the
 * instance's settings (maintenance mode). Nodes forget what they remembered on such a notice.
 */
export function changesRemembered(type: string): boolean {
  return type.startsWith("api-token-") || type.startsWith("setting-");
}

/**
 * A notice's payload: the event id, a mark when remembered state changed, and the sending
 * node, so that a node ignores its own notice coming back (its listeners were told at publish;
 * hearing it again would wake them twice per write).
 */
const REMEMBERED_MARK = ";remembered";
const payloadOf = (id: bigint, remembered: boolean, node: string) =>
  `${id}${remembered ? REMEMBERED_MARK : ""}@${node}`;

/** The payload of an access notice (before `@node`). */
const ACCESS_NOTICE = "access";

/** A notice with this id means "something may have been missed": re-read the log. */
export const RESYNC = -1n;

/** PostgreSQL NOTIFY channel (and Redis pub/sub channel) of committed-event notices. */
export const CHANNEL = "vexil_events";

/** One process: PGlite, or a single server. */
export function createInProcessBus(): EventBus {
  const listeners = new Set<Listener>();
  const access = new AccessListeners();
  return {
    publish: (event) => notify(listeners, event.id, event, changesRemembered(event.type)),
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publishAccessChange: () => access.notify(),
    listenAccessChange: (listener) => access.add(listener),
    async close() {
      listeners.clear();
      access.clear();
    },
  };
}

/** Listeners of access notices; one that throws does not keep the others from hearing. */
class AccessListeners {
  private readonly listeners = new Set<() => void>();
  add(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  notify(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // An access listener only schedules a recheck; its failure is its own.
      }
    }
  }
  clear(): void {
    this.listeners.clear();
  }
}

/**
 * Several nodes on one PostgreSQL: notices travel with NOTIFY on a dedicated connection
 * (LISTEN needs a session of its own, outside the pool). Local listeners are told at once,
 * then the notice goes out.
 */
export async function createPostgresBus(url: string, logger: Logger): Promise<EventBus> {
  const listeners = new Set<Listener>();
  const access = new AccessListeners();
  const node = randomUUID();
  let client: pg.Client | null = null;
  let closed = false;
  let highest: bigint | null = null;
  let rememberedChanged = false;

  // Loaded here: a node on the in-process bus never needs node-postgres (~0.1 s of a start).
  const { default: postgres } = await import("pg");
  const connect = async (): Promise<void> => {
    const next = new postgres.Client({ connectionString: url });
    next.on("notification", (message) => notifyPayload(listeners, access, message.payload, node));
    next.on("error", (error) => {
      logger.warn("event bus connection lost", { error: String(error) });
      if (client === next) client = null;
      void next.end().catch(() => undefined);
      if (!closed) setTimeout(() => void reconnect(), 500).unref();
    });
    await next.connect();
    await next.query(`LISTEN ${CHANNEL}`);
    client = next;
    // Notices sent while we were away are lost: have readers re-read the log.
    notify(listeners, RESYNC, undefined, true);
  };
  const reconnect = () =>
    connect().catch((error) => {
      logger.warn("event bus reconnect failed", { error: String(error) });
      if (!closed) setTimeout(() => void reconnect(), 1000).unref();
    });
  // One NOTIFY on its way at a time, carrying the highest id published since the last one (the
  // highest is enough: it wakes). Under load the notices of many writes share one NOTIFY, each
  // a round trip and a commit-time lock in PostgreSQL; alone, a notice leaves at once.
  let sending = false;
  const flush = () => {
    if (sending || closed) return;
    const id = highest;
    const remembered = rememberedChanged;
    highest = null;
    rememberedChanged = false;
    if (id === null || !client) return;
    sending = true;
    client
      .query("SELECT pg_notify($1, $2)", [CHANNEL, payloadOf(id, remembered, node)])
      .catch((error) => logger.warn("event bus notify failed", { error: String(error) }))
      .finally(() => {
        sending = false;
        flush();
      });
  };

  await connect();
  return {
    publish(event) {
      const remembered = changesRemembered(event.type);
      notify(listeners, event.id, event, remembered);
      if (highest === null && !sending) queueMicrotask(flush);
      if (highest === null || event.id > highest) highest = event.id;
      rememberedChanged ||= remembered;
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publishAccessChange() {
      access.notify();
      client
        ?.query("SELECT pg_notify($1, $2)", [CHANNEL, `${ACCESS_NOTICE}@${node}`])
        .catch((error) => logger.warn("event bus notify failed", { error: String(error) }));
    },
    listenAccessChange: (listener) => access.add(listener),
    async close() {
      closed = true;
      listeners.clear();
      access.clear();
      await client?.end().catch(() => undefined);
    },
  };
}

/** Several nodes sharing a Redis: notices travel on a pub/sub channel. */
export async function createRedisBus(url: string, logger: Logger): Promise<EventBus> {
  const listeners = new Set<Listener>();
  const access = new AccessListeners();
  const node = randomUUID();
  const subscriber = createRedisClient(url, { lazyConnect: true });
  const publisher = createRedisClient(url, { lazyConnect: true });
  for (const connection of [subscriber, publisher]) {
    connection.on("error", (error) => logger.warn("event bus (redis) error", { error: String(error) }));
  }
  subscriber.on("message", (_channel, message) => notifyPayload(listeners, access, message, node));
  // ioredis resubscribes after a reconnect; notices published meanwhile are lost.
  subscriber.on("ready", () => notify(listeners, RESYNC, undefined, true));
  await Promise.all([subscriber.connect(), publisher.connect()]);
  await subscriber.subscribe(CHANNEL);
  return {
    publish(event) {
      const remembered = changesRemembered(event.type);
      notify(listeners, event.id, event, remembered);
      publisher.publish(CHANNEL, payloadOf(event.id, remembered, node)).catch((error) => {
        logger.warn("event bus (redis) publish failed", { error: String(error) });
      });
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publishAccessChange() {
      access.notify();
      publisher.publish(CHANNEL, `${ACCESS_NOTICE}@${node}`).catch((error) => {
        logger.warn("event bus (redis) publish failed", { error: String(error) });
      });
    },
    listenAccessChange: (listener) => access.add(listener),
    async close() {
      listeners.clear();
      access.clear();
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}

/** The bus the configuration calls for: Redis when set, else NOTIFY on PostgreSQL, else in-process. */
export async function createEventBus(
  options: { redisUrl?: string; postgresUrl?: string },
  logger: Logger,
): Promise<EventBus> {
  if (options.redisUrl) return createRedisBus(options.redisUrl, logger);
  if (options.postgresUrl) return createPostgresBus(options.postgresUrl, logger);
  return createInProcessBus();
}

/** Tells every listener, even when one throws; the first error is rethrown afterwards. */
function notify(
  listeners: Set<Listener>,
  id: bigint,
  committedHere: StoredEvent | undefined,
  rememberedChanged: boolean,
) {
  let failure: unknown;
  for (const listener of listeners) {
    try {
      listener(id, committedHere, rememberedChanged);
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== undefined) throw failure;
}

/**
 * A notice from the channel: this node's own is ignored; another's that cannot be read is a
 * resync (anything may have changed).
 */
function notifyPayload(
  listeners: Set<Listener>,
  access: AccessListeners,
  payload: string | undefined,
  node: string,
) {
  const accessFrom = /^access@([\w-]+)$/.exec(payload ?? "");
  if (accessFrom) {
    if (accessFrom[1] !== node) access.notify();
    return;
  }
  const match = /^(\d+)(;remembered)?(?:@([\w-]+))?$/.exec(payload ?? "");
  if (match?.[3] === node) return;
  if (!match) notify(listeners, RESYNC, undefined, true);
  else notify(listeners, BigInt(match[1] as string), undefined, match[2] !== undefined);
}
