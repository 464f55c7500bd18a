import type { EventBus } from "./bus.ts";

/**
 * A value a node reads once and remembers until a bus notice says remembered state changed
 * (an `api-token-*` or `setting-*` event on any node, or a resync: `changesRemembered`).
 */
export type Remembered<T> = {
  /** The remembered value, or a new read of it (shared by concurrent callers); a failed read is not remembered. */
  get(): Promise<T>;
  /** Stops listening to the bus. */
  close(): void;
};

export function rememberedUntilChanged<T>(
  bus: Pick<EventBus, "listen">,
  read: () => Promise<T>,
): Remembered<T> {
  let value: Promise<T> | undefined;
  const unlisten = bus.listen((_id, _event, rememberedChanged) => {
    if (rememberedChanged) value = undefined;
  });
  return {
    get() {
      if (!value) {
        const reading = read();
        value = reading;
        reading.catch(() => {
          if (value === reading) value = undefined;
        });
      }
      return value;
    },
    close: unlisten,
  };
}
