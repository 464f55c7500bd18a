import { Repeater } from "graphql-yoga";
import type { StoredEvent } from "./types.ts";

/**
 * Delivers committed events to live subscribers. This in-process bus serves PGlite and a
 * single server; a multi-node bus (PostgreSQL LISTEN/NOTIFY) implements the same interface.
 */
export type EventBus = {
  publish(event: StoredEvent): void;
  /** An async stream of every event published after the call; ends when `signal` aborts. */
  subscribe(signal?: AbortSignal): AsyncIterable<StoredEvent>;
  close(): Promise<void>;
};

/** Subscribers with more than this many undelivered events are dropped (slow consumers). */
const MAX_BUFFERED = 10_000;

export function createInProcessBus(): EventBus {
  const listeners = new Set<(event: StoredEvent) => void>();
  const stops = new Set<() => void>();
  return {
    publish(event) {
      for (const listener of listeners) listener(event);
    },
    subscribe(signal) {
      return new Repeater<StoredEvent>(async (push, stop) => {
        let pending = 0;
        const listener = (event: StoredEvent) => {
          if (pending >= MAX_BUFFERED) return stop(new Error("subscriber too slow: buffer full"));
          pending++;
          void push(event).then(() => pending--);
        };
        listeners.add(listener);
        stops.add(stop);
        signal?.addEventListener("abort", () => stop(), { once: true });
        await stop;
        listeners.delete(listener);
        stops.delete(stop);
      });
    },
    async close() {
      for (const stop of stops) stop();
    },
  };
}
