import type { Db } from "../../db/database.ts";
import type { EventBus } from "../../events/bus.ts";
import { type Remembered, rememberedUntilChanged } from "../../events/remembered.ts";
import { isMaintenanceMode } from "./maintenance.read.ts";

/**
 * Maintenance mode as this node last read it (one per app). Forgotten on every bus notice of a
 * `setting-*` event from any node (or a resync), so a mutation reads the setting once after a
 * change instead of once per mutation.
 */
export function rememberMaintenanceMode(deps: {
  bus: EventBus;
  db: Pick<Db, "setting">;
}): Remembered<boolean> {
  return rememberedUntilChanged(deps.bus, () => isMaintenanceMode(deps.db));
}
