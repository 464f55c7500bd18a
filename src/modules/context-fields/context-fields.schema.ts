import { builder } from "../../builder.ts";
import { found } from "../../shared/found.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import {
  createContextField,
  deleteContextField,
  type LegalValue,
  updateContextField,
} from "./context-field.write.ts";

const LegalValueRef = builder.objectRef<LegalValue>("LegalValue").implement({
  description: "One value a context field may take, offered when writing constraints.",
  fields: (t) => ({
    value: t.exposeString("value", { description: "The value." }),
    description: t.string({
      nullable: true,
      description: "What the value means.",
      resolve: (v) => v.description ?? null,
    }),
  }),
});

builder.prismaObject("ContextField", {
  description: "A field of the evaluation context (userId, region, ...) that constraints can test.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Unique URL-friendly name, as SDKs send it." }),
    description: t.exposeString("description", { nullable: true, description: "Free text." }),
    stickiness: t.exposeBoolean("stickiness", {
      description: "Whether the field can be used as stickiness for rollouts and variants.",
    }),
    sortOrder: t.exposeInt("sortOrder", { description: "Position in lists, ascending." }),
    legalValues: t.field({
      type: [LegalValueRef],
      description: "The values offered for constraints; empty means any value.",
      resolve: (f) => f.legalValues as LegalValue[],
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the field was created." }),
    project: t.exposeString("projectId", {
      nullable: true,
      description:
        "The project a project-scoped field belongs to (its flags' constraints see it); null for a root field, which every project sees.",
    }),
  }),
});

const PROJECT_ARG = "Project id: only that project's fields; omitted = any field (root or project) by name.";

builder.queryField("contextFields", (t) =>
  t.prismaField({
    type: ["ContextField"],
    description:
      "Context fields, ordered by sortOrder then name: the root fields, or with `project` that project's fields (Unleash's `include` widens either list).",
    authScopes: { authenticated: true },
    args: {
      project: t.arg.string({ description: "Only this project's fields instead of the root fields." }),
      includeRoot: t.arg.boolean({
        description: "With `project`: the root fields too (Unleash's include=root).",
      }),
      includeProjects: t.arg.boolean({
        description: "Without `project`: every project's fields too (Unleash's include=project).",
      }),
    },
    resolve: (query, _root, args, ctx) => {
      const where = args.project
        ? args.includeRoot
          ? { OR: [{ projectId: args.project }, { projectId: null }] }
          : { projectId: args.project }
        : args.includeProjects
          ? {}
          : { projectId: null };
      return ctx.db.contextField.findMany({
        ...query,
        where,
        orderBy: [{ sortOrder: "asc" }, { name: "asc" }],
      });
    },
  }),
);

builder.queryField("contextField", (t) =>
  t.prismaField({
    type: "ContextField",
    description: "One context field by name; fails with NOT_FOUND when there is none.",
    authScopes: { authenticated: true },
    args: {
      name: t.arg.string({ required: true, description: "Context field name." }),
      project: t.arg.string({ description: PROJECT_ARG }),
    },
    resolve: async (query, _root, args, ctx) => {
      const field = await ctx.db.contextField.findUnique({ ...query, where: { name: args.name } });
      const inScope = field && (args.project == null || field.projectId === args.project);
      return found(
        inScope ? field : null,
        `context field "${args.name}"${args.project != null ? ` in project "${args.project}"` : ""}`,
      );
    },
  }),
);

const LegalValueInput = builder.inputType("LegalValueInput", {
  description: "One legal value of a context field.",
  fields: (t) => ({
    value: t.string({ required: true, description: "The value, 1 to 100 characters, unique in the field." }),
    description: t.string({ description: "What the value means." }),
  }),
});

const CreateContextFieldInput = builder.inputType("CreateContextFieldInput", {
  description: "A new context field.",
  fields: (t) => ({
    name: t.string({ required: true, description: "Unique URL-friendly name (letters, digits, - . _ ~)." }),
    description: t.string({ description: "Free text." }),
    stickiness: t.boolean({ description: "Usable as stickiness; default false." }),
    sortOrder: t.int({ description: "Position in lists; default 10." }),
    legalValues: t.field({ type: [LegalValueInput], description: "Legal values; default none (any value)." }),
    project: t.string({
      description: "Makes it a project-scoped field of this project; omitted = a root field.",
    }),
  }),
});

const UpdateContextFieldInput = builder.inputType("UpdateContextFieldInput", {
  description: "Changes to a context field; absent fields stay as they are.",
  fields: (t) => ({
    description: t.string({ description: "Free text; null clears it." }),
    stickiness: t.boolean({ description: "Usable as stickiness." }),
    sortOrder: t.int({ description: "Position in lists." }),
    legalValues: t.field({ type: [LegalValueInput], description: "Replaces the legal values as a whole." }),
  }),
});

builder.mutationField("createContextField", (t) =>
  t.prismaField({
    type: "ContextField",
    description: "Creates a context field. Event: context-field-created.",
    args: { input: t.arg({ type: CreateContextFieldInput, required: true, description: "The field." }) },
    authScopes: { permission: { permission: PERMISSIONS.CREATE_CONTEXT_FIELD } },
    resolve: async (query, _root, args, ctx) => {
      const { stickiness, sortOrder, legalValues, project, ...rest } = args.input;
      return runWrite(ctx, async (w) => {
        const created = await createContextField(w, {
          ...rest,
          stickiness: stickiness ?? undefined,
          sortOrder: sortOrder ?? undefined,
          legalValues: legalValues ?? undefined,
          project: project ?? null,
        });
        return w.tx.contextField.findUniqueOrThrow({ ...query, where: { name: created.name } });
      });
    },
  }),
);

builder.mutationField("updateContextField", (t) =>
  t.prismaField({
    type: "ContextField",
    description: "Changes a context field. Event: context-field-updated (none when unchanged).",
    args: {
      name: t.arg.string({ required: true, description: "Context field name." }),
      input: t.arg({ type: UpdateContextFieldInput, required: true, description: "The changes." }),
      project: t.arg.string({ description: PROJECT_ARG }),
    },
    authScopes: { permission: { permission: PERMISSIONS.UPDATE_CONTEXT_FIELD } },
    resolve: async (query, _root, args, ctx) => {
      const { stickiness, sortOrder, legalValues, description } = args.input;
      return runWrite(ctx, async (w) => {
        await updateContextField(
          w,
          args.name,
          {
            description,
            stickiness: stickiness ?? undefined,
            sortOrder: sortOrder ?? undefined,
            legalValues: legalValues ?? undefined,
          },
          args.project ?? undefined,
        );
        return w.tx.contextField.findUniqueOrThrow({ ...query, where: { name: args.name } });
      });
    },
  }),
);

builder.mutationField("deleteContextField", (t) =>
  t.prismaField({
    type: "ContextField",
    description: "Deletes a context field and returns it as it was. Event: context-field-deleted.",
    args: {
      name: t.arg.string({ required: true, description: "Context field name." }),
      project: t.arg.string({ description: PROJECT_ARG }),
    },
    authScopes: { permission: { permission: PERMISSIONS.DELETE_CONTEXT_FIELD } },
    resolve: async (query, _root, args, ctx) => {
      const before = await ctx.db.contextField.findUnique({ ...query, where: { name: args.name } });
      await runWrite(ctx, (w) => deleteContextField(w, args.name, args.project ?? undefined));
      return before as NonNullable<typeof before>;
    },
  }),
);
