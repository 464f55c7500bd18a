import { builder } from "../../builder.ts";
import { NameExistsError } from "../../shared/errors.ts";
import { parseInput } from "../../shared/validation.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { findProject } from "../projects/project.read.ts";
import { createContextFieldSchema } from "./context-field.inputs.ts";
import { removeLegalValue, upsertLegalValue } from "./context-field.write.ts";

builder.queryField("validateContextFieldName", (t) =>
  t.boolean({
    description:
      "Checks a name for a new context field: true when URL-friendly and free; VALIDATION for a malformed name, NAME_EXISTS for a taken one (by a root or any project's field).",
    authScopes: { authenticated: true },
    args: {
      name: t.arg.string({ required: true, description: "The name to check." }),
      project: t.arg.string({
        description:
          "For a new field of this project (the project must exist); names are unique across root and project fields.",
      }),
    },
    resolve: async (_root, args, ctx) => {
      parseInput(createContextFieldSchema.pick({ name: true }), { name: args.name });
      if (args.project != null) await findProject(ctx.db, args.project);
      if (await ctx.db.contextField.findUnique({ where: { name: args.name }, select: { name: true } })) {
        throw new NameExistsError(`A context field with the name "${args.name}" already exists.`);
      }
      return true;
    },
  }),
);

builder.mutationFields((t) => ({
  setContextFieldLegalValue: t.prismaField({
    type: "ContextField",
    description:
      "Adds a legal value to a context field, or changes the description of the existing one. Event: context-field-updated (none when unchanged).",
    args: {
      name: t.arg.string({ required: true, description: "Context field name." }),
      value: t.arg.string({ required: true, description: "The legal value." }),
      description: t.arg.string({ description: "What the value means." }),
      project: t.arg.string({ description: "Project id: only a field of that project." }),
    },
    authScopes: { permission: { permission: PERMISSIONS.UPDATE_CONTEXT_FIELD } },
    resolve: (query, _root, args, ctx) =>
      runWrite(ctx, async (w) => {
        await upsertLegalValue(
          w,
          args.name,
          { value: args.value, ...(args.description ? { description: args.description } : {}) },
          args.project ?? undefined,
        );
        return w.tx.contextField.findUniqueOrThrow({ ...query, where: { name: args.name } });
      }),
  }),
  removeContextFieldLegalValue: t.prismaField({
    type: "ContextField",
    description:
      "Removes a legal value from a context field; constraints using it are left as they are. Event: context-field-updated (none when the field does not have it).",
    args: {
      name: t.arg.string({ required: true, description: "Context field name." }),
      value: t.arg.string({ required: true, description: "The legal value." }),
      project: t.arg.string({ description: "Project id: only a field of that project." }),
    },
    authScopes: { permission: { permission: PERMISSIONS.UPDATE_CONTEXT_FIELD } },
    resolve: (query, _root, args, ctx) =>
      runWrite(ctx, async (w) => {
        await removeLegalValue(w, args.name, args.value, args.project ?? undefined);
        return w.tx.contextField.findUniqueOrThrow({ ...query, where: { name: args.name } });
      }),
  }),
}));
