import type { Db } from "../../db/database.ts";
import type { EventBus } from "../../events/bus.ts";
import { isMaintenanceMode } from "./maintenance.read.ts";

/**
 * Maintenance mode as this node last read it, per bus (one per app). Forgotten on every bus
 * notice of a `setting-*` event from any node (or a resync), so a mutation reads the setting
 * once after a change instead of once per mutation.
 */
const rememberedModes = new WeakMap<EventBus, { enabled?: Promise<boolean> }>();

export function rememberedMode(bus: EventBus, db: Pick<Db, "setting">): Promise<boolean> {
  let memory = rememberedModes.get(bus);
  if (!memory) {
    const created: { enabled?: Promise<boolean> } = {};
    bus.listen((_id, _event, rememberedChanged) => {
      if (rememberedChanged) created.enabled = undefined;
    });
    rememberedModes.set(bus, created);
    memory = created;
  }
  memory.enabled ??= isMaintenanceMode(db);
  const read = memory.enabled;
  read.catch(() => {
    if (memory.enabled === read) memory.enabled = undefined; // a failed read is not remembered
  });
  return read;
}
