import { builder } from "../../builder.ts";
import { recordEvent } from "../../events/record.ts";
import { NotFoundError, ValidationError } from "../../shared/errors.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { lockFeatures } from "../feature-environments/feature-lock.read.ts";
import { assertDirectProjectChangeAllowed } from "../feature-environments/guards.read.ts";
import { featureByName } from "./feature.read.ts";
import { cloneFeature } from "./feature-clone.write.ts";
import { TagInput } from "./feature-create.schema.ts";
import { addFeatureTag, removeFeatureTag } from "./feature-tags.write.ts";

builder.mutationFields((t) => ({
  updateFeatureTags: t.prismaField({
    type: ["FeatureTag"],
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
    resolve: (query, _root, args, ctx) =>
      runWrite(ctx, async (w) => {
        await featureByName(w.tx, args.feature, true);
        for (const tag of args.addedTags) await addFeatureTag(w, args.feature, tag);
        for (const tag of args.removedTags) await removeFeatureTag(w, args.feature, tag);
        return w.tx.featureTag.findMany({
          ...query,
          where: { featureName: args.feature },
          orderBy: [{ tagType: "asc" }, { tagValue: "asc" }],
        });
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
  updateFeatureTypeLifetime: t.prismaField({
    type: "FeatureType",
    description:
      "Sets how many days flags of a type live before they are potentially stale; 0 or null: never. Event: feature-type-updated (none when unchanged).",
    args: {
      id: t.arg.string({ required: true, description: "Flag type id." }),
      lifetimeDays: t.arg.int({ description: "Days (0 or null: never); not negative." }),
    },
    authScopes: { permission: { permission: PERMISSIONS.ADMIN } },
    resolve: (query, _root, args, ctx) =>
      runWrite(ctx, async (w) => {
        if ((args.lifetimeDays ?? 0) < 0) {
          throw new ValidationError("lifetimeDays: must be 0 or more", [
            { path: "lifetimeDays", message: "must be 0 or more" },
          ]);
        }
        const before = await w.tx.featureType.findUnique({ where: { id: args.id } });
        if (!before) throw new NotFoundError(`Could not find feature type "${args.id}"`);
        const lifetimeDays = args.lifetimeDays ? args.lifetimeDays : null;
        if (before.lifetimeDays !== lifetimeDays) {
          const after = await w.tx.featureType.update({ where: { id: args.id }, data: { lifetimeDays } });
          await recordEvent(w, { type: "feature-type-updated", data: after, preData: before });
        }
        return w.tx.featureType.findUniqueOrThrow({ ...query, where: { id: args.id } });
      }),
  }),
}));
