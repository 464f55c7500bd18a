import { builder } from "../../builder.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { createDefinition, deleteDefinition, setDeprecated, updateDefinition } from "./definitions.write.ts";

/** Unleash's permissions for strategy types (Editors hold them; Viewers do not). */
const CREATE = { permission: { permission: PERMISSIONS.CREATE_STRATEGY } };
const UPDATE = { permission: { permission: PERMISSIONS.UPDATE_STRATEGY } };
const DELETE = { permission: { permission: PERMISSIONS.DELETE_STRATEGY } };

type ParameterShape = { name: string; type: string; description: string; required: boolean };

const StrategyParameterRef = builder.objectRef<ParameterShape>("StrategyParameterDefinition").implement({
  description: "A parameter a strategy type takes.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Parameter name." }),
    type: t.exposeString("type", { description: "string, percentage, list, number or boolean." }),
    description: t.exposeString("description", { description: "What it means (may be empty)." }),
    required: t.exposeBoolean("required", { description: "Whether a strategy must give it." }),
  }),
});

builder.prismaObject("StrategyDefinition", {
  description:
    "A strategy type: a built-in (default, flexibleRollout, userWithId, remoteAddress, applicationHostname) or a custom one that SDKs implement.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Type name, used as a strategy's `name`." }),
    displayName: t.string({
      nullable: true,
      description: "Display name (built-ins), else the title.",
      resolve: (d) => d.displayName ?? d.title,
    }),
    title: t.exposeString("title", { nullable: true, description: "Title given to a custom type." }),
    description: t.exposeString("description", { nullable: true, description: "Free text." }),
    editable: t.boolean({ description: "False for the built-ins.", resolve: (d) => !d.builtIn }),
    deprecated: t.exposeBoolean("deprecated", {
      description: "Hidden from new strategies; still evaluated.",
    }),
    parameters: t.field({
      type: [StrategyParameterRef],
      description: "The parameters it takes.",
      resolve: (d) => d.parameters as ParameterShape[],
    }),
  }),
});

builder.queryField("strategyDefinitions", (t) =>
  t.prismaField({
    type: ["StrategyDefinition"],
    description: "Every strategy type: built-ins first, then custom ones by name.",
    authScopes: { authenticated: true },
    resolve: (query, _root, _args, ctx) =>
      ctx.db.strategyDefinition.findMany({ ...query, orderBy: [{ sortOrder: "asc" }, { name: "asc" }] }),
  }),
);

builder.queryField("strategyDefinition", (t) =>
  t.prismaField({
    type: "StrategyDefinition",
    nullable: true,
    description: "One strategy type by name, or null.",
    authScopes: { authenticated: true },
    args: { name: t.arg.string({ required: true, description: "Type name." }) },
    resolve: (query, _root, args, ctx) =>
      ctx.db.strategyDefinition.findUnique({ ...query, where: { name: args.name } }),
  }),
);

const ParameterInput = builder.inputType("StrategyParameterDefinitionInput", {
  description: "A parameter of a custom strategy type.",
  fields: (t) => ({
    name: t.string({ required: true, description: "Parameter name (unique in the type)." }),
    type: t.string({ required: true, description: "string, percentage, list, number or boolean." }),
    description: t.string({ description: "What it means." }),
    required: t.boolean({ description: "Whether a strategy must give it (default false)." }),
  }),
});

const CreateInput = builder.inputType("CreateStrategyDefinitionInput", {
  description: "A new custom strategy type.",
  fields: (t) => ({
    name: t.string({ required: true, description: "URL-friendly, unique type name." }),
    title: t.string({ description: "Title." }),
    description: t.string({ description: "Free text." }),
    parameters: t.field({ type: [ParameterInput], required: true, description: "Its parameters." }),
  }),
});

const UpdateInput = builder.inputType("UpdateStrategyDefinitionInput", {
  description: "A custom strategy type's new parameters; absent title or description stay.",
  fields: (t) => ({
    title: t.string({ description: "Title." }),
    description: t.string({ description: "Free text." }),
    parameters: t.field({ type: [ParameterInput], required: true, description: "Its parameters." }),
  }),
});

builder.mutationField("createStrategyDefinition", (t) =>
  t.prismaField({
    type: "StrategyDefinition",
    description: "Creates a custom strategy type; records strategy-created. Taken name: NAME_EXISTS.",
    authScopes: CREATE,
    args: { input: t.arg({ type: CreateInput, required: true, description: "The type." }) },
    resolve: (query, _root, args, ctx) =>
      runWrite(ctx, async (w) => {
        const row = await createDefinition(w, args.input);
        return w.tx.strategyDefinition.findUniqueOrThrow({ ...query, where: { name: row.name } });
      }),
  }),
);

builder.mutationField("updateStrategyDefinition", (t) =>
  t.prismaField({
    type: "StrategyDefinition",
    description: "Changes a custom strategy type; records strategy-updated. Built-in: INVALID_OPERATION.",
    authScopes: UPDATE,
    args: {
      name: t.arg.string({ required: true, description: "Type name." }),
      input: t.arg({ type: UpdateInput, required: true, description: "The changes." }),
    },
    resolve: (query, _root, args, ctx) =>
      runWrite(ctx, async (w) => {
        await updateDefinition(w, args.name, args.input);
        return w.tx.strategyDefinition.findUniqueOrThrow({ ...query, where: { name: args.name } });
      }),
  }),
);

builder.mutationField("deleteStrategyDefinition", (t) =>
  t.boolean({
    description: "Deletes a custom strategy type; records strategy-deleted. Built-in: INVALID_OPERATION.",
    authScopes: DELETE,
    args: { name: t.arg.string({ required: true, description: "Type name." }) },
    resolve: async (_root, args, ctx) => {
      await runWrite(ctx, (w) => deleteDefinition(w, args.name));
      return true;
    },
  }),
);

builder.mutationField("setStrategyDefinitionDeprecated", (t) =>
  t.prismaField({
    type: "StrategyDefinition",
    description:
      "Deprecates a strategy type or makes it active again; records strategy-deprecated or strategy-reactivated.",
    authScopes: UPDATE,
    args: {
      name: t.arg.string({ required: true, description: "Type name." }),
      deprecated: t.arg.boolean({ required: true, description: "True to deprecate, false to reactivate." }),
    },
    resolve: (query, _root, args, ctx) =>
      runWrite(ctx, async (w) => {
        await setDeprecated(w, args.name, args.deprecated);
        return w.tx.strategyDefinition.findUniqueOrThrow({ ...query, where: { name: args.name } });
      }),
  }),
);
