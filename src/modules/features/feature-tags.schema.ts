import { builder } from "../../builder.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { lockFeatures } from "../feature-environments/feature-lock.read.ts";
import { featureByName } from "./feature.read.ts";
import { FLAG_TAG_SELECT, flagTagOf, TagRef } from "./feature.schema.ts";
import { addFeatureTag, removeFeatureTag } from "./feature-tags.write.ts";
import { TagInput } from "./new-features.schema.ts";

const tagOrder = [{ tagType: "asc" as const }, { tagValue: "asc" as const }];

builder.queryField("featureTags", (t) =>
  t.field({
    type: [TagRef],
    description: "Tags of a flag (archived ones too), by type then value; NOT_FOUND for an unknown flag.",
    authScopes: { authenticated: true },
    args: { feature: t.arg.string({ required: true, description: "Flag name." }) },
    resolve: async (_root, args, ctx) => {
      await featureByName(ctx.db, args.feature, true);
      const rows = await ctx.db.featureTag.findMany({
        where: { featureName: args.feature },
        orderBy: tagOrder,
        select: FLAG_TAG_SELECT,
      });
      return rows.map(flagTagOf);
    },
  }),
);

builder.mutationField("addFeatureTag", (t) =>
  t.field({
    type: TagRef,
    description:
      "Tags a flag (feature-tagged); the tag type must exist, a new value is created (tag-created). Already tagged: no event.",
    args: {
      feature: t.arg.string({ required: true, description: "Flag name." }),
      type: t.arg.string({ required: true, description: "Tag type (must exist)." }),
      value: t.arg.string({ required: true, description: "Tag value, 2 to 50 characters." }),
    },
    authScopes: { permission: { permission: PERMISSIONS.UPDATE_FEATURE } },
    resolve: async (_root, args, ctx) => {
      const { tag, color } = await runWrite(ctx, (w) =>
        addFeatureTag(w, args.feature, { type: args.type, value: args.value }),
      );
      return { tagType: tag.type, tagValue: tag.value, color };
    },
  }),
);

builder.mutationField("removeFeatureTag", (t) =>
  t.prismaField({
    type: "Feature",
    description: "Removes a tag from a flag (feature-untagged); a tag it does not have: no event.",
    args: {
      feature: t.arg.string({ required: true, description: "Flag name." }),
      type: t.arg.string({ required: true, description: "Tag type." }),
      value: t.arg.string({ required: true, description: "Tag value." }),
    },
    authScopes: { permission: { permission: PERMISSIONS.UPDATE_FEATURE } },
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        await removeFeatureTag(w, args.feature, { type: args.type, value: args.value });
        return w.tx.feature.findUniqueOrThrow({ ...query, where: { name: args.feature } });
      });
    },
  }),
);

builder.mutationFields((t) => ({
  updateFeatureTags: t.field({
    type: [TagRef],
    description:
      "Adds then removes tags of a flag in one transaction (Unleash's PUT .../tags): feature-tagged / feature-untagged for each real change, tag-created for a new value. Returns the flag's tags afterwards.",
    args: {
      feature: t.arg.string({ required: true, description: "Flag name." }),
      addedTags: t.arg({
        type: [TagInput],
        required: true,
        description: "Tags to add (their types must exist).",
      }),
      removedTags: t.arg({ type: [TagInput], required: true, description: "Tags to remove." }),
    },
    authScopes: { permission: { permission: PERMISSIONS.UPDATE_FEATURE } },
    resolve: (_root, args, ctx) =>
      runWrite(ctx, async (w) => {
        await featureByName(w.tx, args.feature, true);
        for (const tag of args.addedTags) await addFeatureTag(w, args.feature, tag);
        for (const tag of args.removedTags) await removeFeatureTag(w, args.feature, tag);
        const rows = await w.tx.featureTag.findMany({
          where: { featureName: args.feature },
          orderBy: tagOrder,
          select: FLAG_TAG_SELECT,
        });
        return rows.map(flagTagOf);
      }),
  }),
  updateProjectFeaturesTags: t.stringList({
    description:
      "Adds then removes the same tags on several flags of a project, all or nothing (Unleash's bulk tagging): feature-tagged / feature-untagged for each real change, tag-created for a new value. Returns the flag names.",
    args: {
      project: t.arg.string({ required: true, description: "Project id (every flag must be in it)." }),
      features: t.arg.stringList({ required: true, description: "Flag names." }),
      addedTags: t.arg({
        type: [TagInput],
        required: true,
        description: "Tags to add (their types must exist).",
      }),
      removedTags: t.arg({ type: [TagInput], required: true, description: "Tags to remove." }),
    },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.UPDATE_FEATURE, project: args.project },
    }),
    resolve: (_root, args, ctx) =>
      runWrite(ctx, async (w) => {
        const features = await lockFeatures(w.tx, args.project, args.features);
        for (const feature of features) {
          for (const tag of args.addedTags) await addFeatureTag(w, feature.name, tag);
          for (const tag of args.removedTags) await removeFeatureTag(w, feature.name, tag);
        }
        return features.map((f) => f.name);
      }),
  }),
}));
