import { builder } from "../../builder.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { isMaintenanceMode } from "./maintenance.read.ts";
import { setMaintenanceMode } from "./maintenance.write.ts";

const ADMIN_ONLY = { permission: { permission: PERMISSIONS.ADMIN } };

builder.queryField("maintenanceMode", (t) =>
  t.boolean({
    description: "Whether maintenance mode is on: every change but turning it off is refused (admins only).",
    authScopes: ADMIN_ONLY,
    resolve: (_root, _args, ctx) => isMaintenanceMode(ctx.db),
  }),
);

builder.mutationField("setMaintenanceMode", (t) =>
  t.boolean({
    description:
      "Turns maintenance mode on or off (admins only); records setting-updated. While on, other mutations answer MAINTENANCE (503).",
    authScopes: ADMIN_ONLY,
    args: { enabled: t.arg.boolean({ required: true, description: "On or off." }) },
    resolve: (_root, args, ctx) => runWrite(ctx, (w) => setMaintenanceMode(w, args.enabled)),
  }),
);
