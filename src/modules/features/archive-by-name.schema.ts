import { builder } from "../../builder.ts";
import type { Context } from "../../context.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { runWrite } from "../../shared/write.ts";
import { requirePermission } from "../access/check.logic.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { deleteFeatures, reviveFeatures } from "./feature-archive.write.ts";

/**
 * The project of a flag named on a path without a project (Unleash's /archive/... paths), with
 * the caller's permission checked there: NOT_FOUND for an unknown flag, then FORBIDDEN.
 */
async function projectOfFlag(
  ctx: Context,
  name: string,
  permission: (typeof PERMISSIONS)[keyof typeof PERMISSIONS],
) {
  const feature = await ctx.db.feature.findUnique({ where: { name }, select: { projectId: true } });
  if (!feature) throw new NotFoundError(`Could not find feature flag "${name}"`);
  requirePermission(ctx, { permission, project: feature.projectId });
  return feature.projectId;
}

builder.mutationFields((t) => ({
  reviveArchivedFeature: t.prismaField({
    type: "Feature",
    description:
      "Revives one archived flag by name (its project looked up; UPDATE_FEATURE there), as reviveFeatures: off everywhere, lifecycle back to `initial`, feature-revived. A flag that is not archived is left alone.",
    args: { name: t.arg.string({ required: true, description: "Flag name." }) },
    authScopes: { authenticated: true },
    resolve: async (query, _root, args, ctx) => {
      const project = await projectOfFlag(ctx, args.name, PERMISSIONS.UPDATE_FEATURE);
      return runWrite(ctx, async (w) => {
        await reviveFeatures(w, project, [args.name]);
        return w.tx.feature.findUniqueOrThrow({ ...query, where: { name: args.name } });
      });
    },
  }),
  deleteArchivedFeature: t.boolean({
    description:
      "Deletes one archived flag by name for good (its project looked up; DELETE_FEATURE there), as deleteFeatures: feature-deleted. True when deleted; false for a flag that is not archived (left unchanged).",
    args: { name: t.arg.string({ required: true, description: "Flag name." }) },
    authScopes: { authenticated: true },
    resolve: async (_root, args, ctx) => {
      const project = await projectOfFlag(ctx, args.name, PERMISSIONS.DELETE_FEATURE);
      const deleted = await runWrite(ctx, (w) => deleteFeatures(w, project, [args.name]));
      return deleted.length > 0;
    },
  }),
}));
