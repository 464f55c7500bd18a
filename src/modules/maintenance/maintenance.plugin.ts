import { GraphQLError, getOperationAST, Kind, OperationTypeNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Context } from "../../context.ts";
import type { Db } from "../../db/database.ts";
import type { EventBus } from "../../events/bus.ts";
import { recordEvent } from "../../events/record.ts";
import { MaintenanceModeError } from "../../shared/errors.ts";
import type { Write } from "../../shared/write.ts";
import { createOrLockSetting, updateSetting } from "../settings/setting.write.ts";

/** The setting that holds maintenance mode (`{enabled}`), shared by every node. */
export const MAINTENANCE_SETTING = "maintenance.mode";

/** Mutations that still run in maintenance mode: turning it off. */
const ALLOWED = new Set(["setMaintenanceMode"]);

export async function isMaintenanceMode(db: Pick<Db, "setting">): Promise<boolean> {
  const row = await db.setting.findUnique({ where: { name: MAINTENANCE_SETTING } });
  return (row?.content as { enabled?: boolean } | undefined)?.enabled === true;
}

/**
 * Maintenance mode as this node last read it, per bus (one per app). Forgotten on every bus
 * notice of a `setting-*` event from any node (or a resync), so a mutation reads the setting
 * once after a change instead of once per mutation.
 */
const rememberedModes = new WeakMap<EventBus, { enabled?: Promise<boolean> }>();

function rememberedMode(bus: EventBus, db: Pick<Db, "setting">): Promise<boolean> {
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

/**
 * Refuses every mutation but `setMaintenanceMode` while maintenance mode is on (503
 * MAINTENANCE), over GraphQL and so over REST, which runs the same operations. Reads, SDK
 * traffic and login keep working, as in Unleash. The setting is read once per change (see
 * `rememberedMode`), not per mutation.
 */
export function useMaintenanceGuard(): Plugin<Record<string, unknown>> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation !== OperationTypeNode.MUTATION) return;
      const fields = operation.selectionSet.selections.filter((s) => s.kind === Kind.FIELD);
      if (
        fields.every(
          (f) => f.kind === Kind.FIELD && (ALLOWED.has(f.name.value) || f.name.value === "__typename"),
        )
      )
        return;
      const ctx = args.contextValue as unknown as Context;
      if (!(await rememberedMode(ctx.bus, ctx.db))) return;
      const error = new MaintenanceModeError();
      setResultAndStopExecution({
        errors: [
          new GraphQLError(error.message, {
            extensions: { code: error.code, details: error.details, http: { status: 503, spec: false } },
          }),
        ],
      });
    },
  };
}
