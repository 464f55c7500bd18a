import { builder } from "../../builder.ts";
import { SYSTEM_ACTOR } from "../../shared/actor.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { JsonPatchOperationInput } from "../feature-environments/bulk.schema.ts";
import { patchFeature, setFeaturesStale, updateFeature } from "./feature-update.write.ts";
import { completeFeature, markPotentiallyStaleFlags, uncompleteFeature } from "./lifecycle-change.write.ts";

const UpdateFeatureInput = builder.inputType("UpdateFeatureInput", {
  description: "Metadata of a flag; fields left out are kept.",
  fields: (t) => ({
    description: t.string({ description: "Free text (null clears it)." }),
    type: t.string({ description: "Flag type (must exist)." }),
    impressionData: t.boolean({ description: "SDKs emit impression events." }),
    stale: t.boolean({ description: "Marked stale (records feature-stale-on/-off)." }),
  }),
});

const CompletedStatusEnum = builder.enumType("CompletedStatus", {
  description: "Outcome of a completed flag.",
  values: {
    kept: { description: "The feature stays (statusValue: what was kept)." },
    discarded: { description: "The feature was removed." },
  },
});

const flagArgs = (t: Parameters<Parameters<typeof builder.mutationField>[1]>[0]) => ({
  project: t.arg.string({ required: true, description: "Project id." }),
  name: t.arg.string({ required: true, description: "Flag name." }),
});

/** A project and flags of it: the arguments of the mutations on several flags. */
export const listArgs = (t: Parameters<Parameters<typeof builder.mutationField>[1]>[0]) => ({
  project: t.arg.string({ required: true, description: "Project id." }),
  names: t.arg.stringList({ required: true, description: "Flag names." }),
});

builder.mutationField("updateFeature", (t) =>
  t.prismaField({
    type: "Feature",
    description:
      "Changes metadata: feature-metadata-updated (data/preData: new/old record), feature-stale-on/-off.",
    args: {
      ...flagArgs(t),
      input: t.arg({ type: UpdateFeatureInput, required: true, description: "Changes." }),
    },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.UPDATE_FEATURE, project: args.project },
    }),
    resolve: async (query, _root, args, ctx) => {
      const { description, type, impressionData, stale } = args.input;
      return runWrite(ctx, async (w) => {
        await updateFeature(w, args.project, args.name, {
          description,
          type: type ?? undefined,
          impressionData: impressionData ?? undefined,
          stale: stale ?? undefined,
        });
        return w.tx.feature.findUniqueOrThrow({ ...query, where: { name: args.name } });
      });
    },
  }),
);

builder.mutationField("patchFeature", (t) =>
  t.prismaField({
    type: "Feature",
    description: "Applies a JSON Patch (RFC 6902) to the flag's metadata; events as updateFeature.",
    args: {
      ...flagArgs(t),
      operations: t.arg({ type: [JsonPatchOperationInput], required: true, description: "The patch." }),
    },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.UPDATE_FEATURE, project: args.project },
    }),
    resolve: async (query, _root, args, ctx) => {
      const ops = args.operations.map((o) => ({
        op: o.op,
        path: o.path,
        ...(o.from == null ? {} : { from: o.from }),
        ...(o.value === undefined ? {} : { value: o.value }),
      }));
      return runWrite(ctx, async (w) => {
        await patchFeature(w, args.project, args.name, ops as never);
        return w.tx.feature.findUniqueOrThrow({ ...query, where: { name: args.name } });
      });
    },
  }),
);

builder.mutationField("setFeaturesStale", (t) =>
  t.prismaField({
    type: ["Feature"],
    description: "Marks flags stale or not; feature-stale-on/-off for each flag whose value changes.",
    args: { ...listArgs(t), stale: t.arg.boolean({ required: true, description: "New value." }) },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.UPDATE_FEATURE, project: args.project },
    }),
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        await setFeaturesStale(w, args.project, args.names, args.stale);
        return w.tx.feature.findMany({
          ...query,
          where: { name: { in: args.names } },
          orderBy: { name: "asc" },
        });
      });
    },
  }),
);

builder.mutationField("completeFeature", (t) =>
  t.prismaField({
    type: "Feature",
    description: "Moves the flag to lifecycle stage `completed` (feature-completed).",
    args: {
      ...flagArgs(t),
      status: t.arg({ type: CompletedStatusEnum, required: true, description: "kept or discarded." }),
      statusValue: t.arg.string({ description: "For kept: what was kept (e.g. a variant)." }),
    },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.UPDATE_FEATURE, project: args.project },
    }),
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        await completeFeature(w, args.project, args.name, {
          status: args.status,
          statusValue: args.statusValue,
        });
        return w.tx.feature.findUniqueOrThrow({ ...query, where: { name: args.name } });
      });
    },
  }),
);

builder.mutationField("uncompleteFeature", (t) =>
  t.prismaField({
    type: "Feature",
    description: "Takes the flag out of stage `completed` (feature-uncompleted).",
    args: flagArgs(t),
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.UPDATE_FEATURE, project: args.project },
    }),
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        await uncompleteFeature(w, args.project, args.name);
        return w.tx.feature.findUniqueOrThrow({ ...query, where: { name: args.name } });
      });
    },
  }),
);

builder.mutationField("markPotentiallyStaleFlags", (t) =>
  t.stringList({
    description:
      "Runs the potentially-stale job now: flags older than their type's lifetime get feature-potentially-stale-on (actor: the system). Returns the names newly marked.",
    authScopes: { permission: { permission: PERMISSIONS.ADMIN } },
    resolve: (_root, _args, ctx) =>
      runWrite(ctx, (w) => markPotentiallyStaleFlags(w, ctx.now()), { actor: SYSTEM_ACTOR }),
  }),
);
