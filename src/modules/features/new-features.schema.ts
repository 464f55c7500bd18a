import { builder } from "../../builder.ts";
import { deletedMeanwhile, runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { assertDirectProjectChangeAllowed } from "../feature-environments/guards.read.ts";
import { cloneFeature } from "./feature-clone.write.ts";
import { createFeature } from "./feature-create.write.ts";

// The root fields that make new flags: createFeature, cloneFeature (and the inputs they take).

export const TagInput = builder.inputType("TagInput", {
  description: "A tag reference.",
  fields: (t) => ({
    type: t.string({ required: true, description: "Tag type (must exist)." }),
    value: t.string({ required: true, description: "Tag value, 2 to 50 characters." }),
  }),
});

const CreateFeatureInput = builder.inputType("CreateFeatureInput", {
  description: "A new flag.",
  fields: (t) => ({
    name: t.string({ required: true, description: "Unique URL-friendly name (letters, digits, - . _ ~)." }),
    type: t.string({ description: "Flag type; default release." }),
    description: t.string({ description: "Free text." }),
    impressionData: t.boolean({ description: "Emit impression events; default false." }),
    tags: t.field({ type: [TagInput], description: "Initial tags (their types must exist)." }),
  }),
});

builder.mutationField("createFeature", (t) =>
  t.prismaField({
    type: "Feature",
    description: "Creates a flag, off in every environment of its project. Event: feature-created.",
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      input: t.arg({ type: CreateFeatureInput, required: true, description: "The flag." }),
    },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.CREATE_FEATURE, project: args.project },
    }),
    resolve: async (query, _root, args, ctx) => {
      const created = await runWrite(ctx, (w) =>
        createFeature(
          w,
          args.project,
          {
            name: args.input.name,
            type: args.input.type ?? undefined,
            description: args.input.description,
            impressionData: args.input.impressionData ?? undefined,
            tags: args.input.tags ?? undefined,
          },
          ctx.config.limits.featureFlags,
        ),
      );
      const feature = await ctx.db.feature.findUnique({ ...query, where: { name: created.name } });
      if (!feature) throw deletedMeanwhile();
      return feature;
    },
  }),
);

builder.mutationFields((t) => ({
  cloneFeature: t.prismaField({
    type: "Feature",
    description:
      "Copies a flag under a new name in its project: type, description, impression data, and per environment its variants, strategies (groupId set to the new name unless replaceGroupId is false) and parent links; off everywhere, no tags. Events: feature-created, feature-strategy-add per strategy. Refused where the project requires change requests, unless the caller may skip them.",
    args: {
      project: t.arg.string({ required: true, description: "Project id (of the flag and its copy)." }),
      name: t.arg.string({ required: true, description: "The flag to copy." }),
      newName: t.arg.string({ required: true, description: "Name of the copy." }),
      replaceGroupId: t.arg.boolean({
        defaultValue: true,
        description: "Give strategies the new name as groupId.",
      }),
    },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.CREATE_FEATURE, project: args.project },
    }),
    resolve: async (query, _root, args, ctx) => {
      await assertDirectProjectChangeAllowed(ctx.db, ctx.principal, args.project);
      return runWrite(ctx, async (w) => {
        const created = await cloneFeature(
          w,
          args.project,
          args.name,
          args.newName,
          args.replaceGroupId ?? true,
          ctx.config.limits,
        );
        return w.tx.feature.findUniqueOrThrow({ ...query, where: { name: created.name } });
      });
    },
  }),
}));
