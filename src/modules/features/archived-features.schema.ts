import { builder } from "../../builder.ts";
import type { Context } from "../../context.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { runWrite } from "../../shared/write.ts";
import { requirePermission } from "../access/check.logic.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { assertDirectProjectChangeAllowed } from "../feature-environments/guards.read.ts";
import { archiveFeatures, deleteFeatures, reviveFeatures, validateArchive } from "./feature-archive.write.ts";
import { listArgs } from "./feature-changes.schema.ts";

// Archiving flags of a project, and reviving or deleting archived flags: by project and names,
// or by name alone (Unleash's /archive/... paths).

const ArchiveValidationRef = builder
  .objectRef<{ parentsWithChildFeatures: string[]; hasDeletedDependencies: boolean }>("ArchiveValidation")
  .implement({
    description: "What archiving a set of flags would do (spec 2.16).",
    fields: (t) => ({
      parentsWithChildFeatures: t.exposeStringList("parentsWithChildFeatures", {
        description: "Flags of the set that still have children outside it (archiving them is refused).",
      }),
      hasDeletedDependencies: t.exposeBoolean("hasDeletedDependencies", {
        description: "Whether some dependency link would be removed.",
      }),
    }),
  });

builder.queryField("archiveValidation", (t) =>
  t.field({
    type: ArchiveValidationRef,
    description:
      "Checks archiving flags (spec 4.12): children left behind, links removed. Unknown names are ignored.",
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.DELETE_FEATURE, project: args.project },
    }),
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      features: t.arg.stringList({ required: true, description: "Flags to archive." }),
    },
    resolve: (_root, args, ctx) => validateArchive(ctx.db, args.features),
  }),
);

builder.mutationField("archiveFeatures", (t) =>
  t.prismaField({
    type: ["Feature"],
    description:
      "Archives flags: feature-archived each, lifecycle `archived`, a child's links removed (feature-dependencies-removed). Refused (INVALID_OPERATION) while another flag depends on one.",
    args: listArgs(t),
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.DELETE_FEATURE, project: args.project },
    }),
    resolve: async (query, _root, args, ctx) => {
      await assertDirectProjectChangeAllowed(ctx.db, ctx.principal, args.project);
      return runWrite(ctx, async (w) => {
        const names = await archiveFeatures(w, args.project, args.names);
        return w.tx.feature.findMany({ ...query, where: { name: { in: names } }, orderBy: { name: "asc" } });
      });
    },
  }),
);

builder.mutationField("reviveFeatures", (t) =>
  t.prismaField({
    type: ["Feature"],
    description: "Revives archived flags: off everywhere, lifecycle back to `initial`, feature-revived each.",
    args: listArgs(t),
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.UPDATE_FEATURE, project: args.project },
    }),
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        const names = await reviveFeatures(w, args.project, args.names);
        return w.tx.feature.findMany({ ...query, where: { name: { in: names } }, orderBy: { name: "asc" } });
      });
    },
  }),
);

builder.mutationField("deleteFeatures", (t) =>
  t.stringList({
    description: "Deletes archived flags for good (feature-deleted each); returns the names deleted.",
    args: listArgs(t),
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.DELETE_FEATURE, project: args.project },
    }),
    resolve: (_root, args, ctx) => runWrite(ctx, (w) => deleteFeatures(w, args.project, args.names)),
  }),
);

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
