import { builder } from "../../builder.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { updateEnvironment } from "./environment.write.ts";

const EnvironmentSortOrderInput = builder.inputType("EnvironmentSortOrderInput", {
  description: "The new position of one environment.",
  fields: (t) => ({
    name: t.string({ required: true, description: "Environment name." }),
    sortOrder: t.int({ required: true, description: "Position in lists, ascending." }),
  }),
});

builder.mutationFields((t) => ({
  setEnvironmentSortOrder: t.prismaField({
    type: ["Environment"],
    description:
      "Sets the sortOrder of the listed environments in one transaction (others unchanged): environment-updated for each that moves. NOT_FOUND (nothing changed) when one is unknown. Returns them in the order given.",
    args: {
      order: t.arg({ type: [EnvironmentSortOrderInput], required: true, description: "New positions." }),
    },
    authScopes: { permission: { permission: PERMISSIONS.UPDATE_ENVIRONMENT } },
    resolve: (query, _root, args, ctx) =>
      runWrite(ctx, async (w) => {
        // Locked in name order, so overlapping concurrent calls cannot deadlock.
        const sorted = [...args.order].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        for (const item of sorted) await updateEnvironment(w, item.name, { sortOrder: item.sortOrder });
        const rows = await w.tx.environment.findMany({
          ...query,
          where: { name: { in: args.order.map((o) => o.name) } },
        });
        return args.order.map((o) => rows.find((r) => r.name === o.name)).filter((r) => r !== undefined);
      }),
  }),
  setEnvironmentEnabled: t.prismaField({
    type: "Environment",
    description:
      "Makes an environment available to projects (enabled) or not. Event: environment-updated (none when unchanged). NOT_FOUND for an unknown environment.",
    args: {
      name: t.arg.string({ required: true, description: "Environment name." }),
      enabled: t.arg.boolean({ required: true, description: "Available (true) or not." }),
    },
    authScopes: { permission: { permission: PERMISSIONS.UPDATE_ENVIRONMENT } },
    resolve: (query, _root, args, ctx) =>
      runWrite(ctx, async (w) => {
        await updateEnvironment(w, args.name, { enabled: args.enabled });
        return w.tx.environment.findUniqueOrThrow({ ...query, where: { name: args.name } });
      }),
  }),
}));
