import { builder } from "../../builder.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { addDependency, removeAllDependencies, removeDependency } from "./dependencies.write.ts";

const AddDependencyInput = builder.inputType("AddDependencyInput", {
  description: "A parent flag this flag depends on.",
  fields: (t) => ({
    feature: t.string({ required: true, description: "The parent flag (same project, not archived)." }),
    enabled: t.boolean({ description: "Parent must be enabled (default true) or disabled (false)." }),
    variants: t.stringList({
      description: "Parent variants that satisfy it; empty = any. Ignored when enabled is false.",
    }),
  }),
});

const scope = (args: { project: string }) => ({
  permission: { permission: PERMISSIONS.UPDATE_FEATURE_DEPENDENCY, project: args.project },
});

builder.mutationField("addFeatureDependency", (t) =>
  t.prismaField({
    type: "Feature",
    description:
      "Makes `feature` depend on a parent (feature-dependency-added). Refused (INVALID_OPERATION): itself, other project, archived parent, cycle.",
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      feature: t.arg.string({ required: true, description: "The child flag." }),
      input: t.arg({ type: AddDependencyInput, required: true, description: "The parent link." }),
    },
    authScopes: (_root, args) => scope(args),
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        await addDependency(w, args.project, args.feature, {
          feature: args.input.feature,
          enabled: args.input.enabled ?? undefined,
          variants: args.input.variants ?? undefined,
        });
        return w.tx.feature.findUniqueOrThrow({ ...query, where: { name: args.feature } });
      });
    },
  }),
);

builder.mutationField("removeFeatureDependency", (t) =>
  t.prismaField({
    type: "Feature",
    description:
      "Removes the link to one parent (feature-dependency-removed), or every link when `parent` is omitted (feature-dependencies-removed).",
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      feature: t.arg.string({ required: true, description: "The child flag." }),
      parent: t.arg.string({ description: "The parent flag; omit to remove all." }),
    },
    authScopes: (_root, args) => scope(args),
    resolve: async (query, _root, args, ctx) => {
      const parent = args.parent;
      return runWrite(ctx, async (w) => {
        await (parent
          ? removeDependency(w, args.project, args.feature, parent)
          : removeAllDependencies(w, args.project, args.feature));
        return w.tx.feature.findUniqueOrThrow({ ...query, where: { name: args.feature } });
      });
    },
  }),
);
