import { builder } from "../../builder.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { assertDependencyChangeAllowed } from "../feature-environments/guards.read.ts";
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
      "Makes `feature` depend on a parent (feature-dependency-added). Refused (INVALID_OPERATION): itself, other project, archived parent, cycle. FORBIDDEN without SKIP_CHANGE_REQUEST where an environment of the project requires change requests: propose an `addDependency` change there instead.",
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      feature: t.arg.string({ required: true, description: "The child flag." }),
      input: t.arg({ type: AddDependencyInput, required: true, description: "The parent link." }),
    },
    authScopes: (_root, args) => scope(args),
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        await assertDependencyChangeAllowed(w, ctx.principal, args.project);
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
      "Removes the link to one parent (feature-dependency-removed), or every link when `parent` is omitted (feature-dependencies-removed). FORBIDDEN without SKIP_CHANGE_REQUEST where an environment of the project requires change requests: propose a `deleteDependency` change there instead.",
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      feature: t.arg.string({ required: true, description: "The child flag." }),
      parent: t.arg.string({ description: "The parent flag; omit to remove all." }),
    },
    authScopes: (_root, args) => scope(args),
    resolve: async (query, _root, args, ctx) => {
      const parent = args.parent;
      return runWrite(ctx, async (w) => {
        await assertDependencyChangeAllowed(w, ctx.principal, args.project);
        await (parent
          ? removeDependency(w, args.project, args.feature, parent)
          : removeAllDependencies(w, args.project, args.feature));
        return w.tx.feature.findUniqueOrThrow({ ...query, where: { name: args.feature } });
      });
    },
  }),
);
