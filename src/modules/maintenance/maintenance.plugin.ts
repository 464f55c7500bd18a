import { GraphQLError, getOperationAST, Kind, OperationTypeNode } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Context } from "../../context.ts";
import { MaintenanceModeError } from "../../shared/errors.ts";

/** Mutations that still run in maintenance mode: turning it off. */
const ALLOWED = new Set(["setMaintenanceMode"]);

/**
 * Refuses every mutation but `setMaintenanceMode` while maintenance mode is on (503
 * MAINTENANCE), over GraphQL and so over REST, which runs the same operations. Reads, SDK
 * traffic and login keep working, as in Unleash. The setting is read once per change (the
 * app's remembered mode: maintenance.cache.ts), not per mutation.
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
      if (!(await ctx.services.maintenanceMode.get())) return;
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
