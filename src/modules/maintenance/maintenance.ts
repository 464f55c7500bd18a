import { GraphQLError, getOperationAST, Kind, OperationTypeNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Context } from "../../context.ts";
import type { Db } from "../../db/database.ts";
import { recordEvent } from "../../events/record.ts";
import { MaintenanceModeError } from "../../shared/errors.ts";
import type { Write } from "../../shared/write.ts";

/** The setting that holds maintenance mode (`{enabled}`), shared by every node. */
export const MAINTENANCE_SETTING = "maintenance.mode";

/** Mutations that still run in maintenance mode: turning it off. */
const ALLOWED = new Set(["setMaintenanceMode"]);

export async function isMaintenanceMode(db: Pick<Db, "setting">): Promise<boolean> {
  const row = await db.setting.findUnique({ where: { name: MAINTENANCE_SETTING } });
  return (row?.content as { enabled?: boolean } | undefined)?.enabled === true;
}

/** Turns maintenance mode on or off (records setting-created / setting-updated; nothing if unchanged). */
export async function setMaintenanceMode(w: Write, enabled: boolean): Promise<boolean> {
  const before = await w.tx.setting.findUnique({ where: { name: MAINTENANCE_SETTING } });
  const wasEnabled = (before?.content as { enabled?: boolean } | undefined)?.enabled === true;
  await w.tx.setting.upsert({
    where: { name: MAINTENANCE_SETTING },
    create: { name: MAINTENANCE_SETTING, content: { enabled } },
    update: { content: { enabled } },
  });
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
 * traffic and login keep working, as in Unleash. One settings read per mutation.
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
      if (!(await isMaintenanceMode(ctx.db))) return;
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
