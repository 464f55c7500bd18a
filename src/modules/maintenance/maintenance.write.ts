import { recordEvent } from "../../events/record.ts";
import type { Write } from "../../shared/write.ts";
import { createOrLockSetting, updateSetting } from "../settings/setting.write.ts";
import { MAINTENANCE_SETTING } from "./maintenance.read.ts";

/** Turns maintenance mode on or off (records setting-created / setting-updated; nothing if unchanged). */
export async function setMaintenanceMode(w: Write, enabled: boolean): Promise<boolean> {
  const before = await createOrLockSetting(w.tx, MAINTENANCE_SETTING, { enabled });
  const wasEnabled = (before?.content as { enabled?: boolean } | undefined)?.enabled === true;
  if (before) await updateSetting(w.tx, MAINTENANCE_SETTING, { enabled });
  if (!before || wasEnabled !== enabled) {
    await recordEvent(w, {
      type: before ? "setting-updated" : "setting-created",
      data: { id: MAINTENANCE_SETTING, enabled },
      ...(before ? { preData: { id: MAINTENANCE_SETTING, enabled: wasEnabled } } : {}),
    });
  }
  return enabled;
}
