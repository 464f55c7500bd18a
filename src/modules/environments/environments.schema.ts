import { builder } from "../../builder.ts";
import { found } from "../../shared/found.ts";
import { NODE_ID } from "../../shared/node-ids.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { createEnvironment, updateEnvironment } from "./environment.write.ts";

export const EnvironmentRef = builder.prismaNode("Environment", {
  description: "A deployment environment (development, production, ...), shared by all projects.",
  nullable: true,
  id: { ...NODE_ID, field: "name" },
  fields: (t) => ({
    name: t.exposeString("name", { description: "Unique name, used in paths and tokens." }),
    type: t.exposeString("type", { description: "Environment type, e.g. development or production." }),
    sortOrder: t.exposeInt("sortOrder", { description: "Position in lists, ascending." }),
    enabled: t.exposeBoolean("enabled", { description: "Disabled environments are hidden from new flags." }),
    protected: t.exposeBoolean("protected", { description: "Protected environments cannot be deleted." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the environment was created." }),
    projectCount: t.relationCount("projects", {
      description: "Number of projects that have this environment enabled.",
    }),
    enabledToggleCount: t.relationCount("featureEnvironments", {
      where: { enabled: true, feature: { archivedAt: null } },
      description: "Number of active flags switched on in this environment.",
    }),
  }),
});

builder.queryField("environments", (t) =>
  t.prismaField({
    type: ["Environment"],
    description: "Every environment, ordered by sortOrder then name.",
    authScopes: { authenticated: true },
    resolve: (query, _root, _args, ctx) =>
      ctx.db.environment.findMany({ ...query, orderBy: [{ sortOrder: "asc" }, { name: "asc" }] }),
  }),
);

builder.queryField("environment", (t) =>
  t.prismaField({
    type: "Environment",
    description: "One environment by name; fails with NOT_FOUND when there is none.",
    authScopes: { authenticated: true },
    args: { name: t.arg.string({ required: true, description: "Environment name." }) },
    resolve: async (query, _root, args, ctx) =>
      found(
        await ctx.db.environment.findUnique({ ...query, where: { name: args.name } }),
        `environment "${args.name}"`,
      ),
  }),
);

const CreateEnvironmentInput = builder.inputType("CreateEnvironmentInput", {
  description: "A new environment.",
  fields: (t) => ({
    name: t.string({ required: true, description: "Unique URL-friendly name (letters, digits, - . _ ~)." }),
    type: t.string({ required: true, description: "Environment type, e.g. development, test, production." }),
    enabled: t.boolean({ description: "Whether new projects get it; default true." }),
    sortOrder: t.int({ description: "Position in lists, ascending; default 1." }),
  }),
});

const UpdateEnvironmentInput = builder.inputType("UpdateEnvironmentInput", {
  description: "Changes to an environment; absent fields stay as they are.",
  fields: (t) => ({
    type: t.string({ description: "Environment type." }),
    sortOrder: t.int({ description: "Position in lists, ascending." }),
  }),
});

builder.mutationField("createEnvironment", (t) =>
  t.prismaField({
    type: "Environment",
    description:
      "Creates an environment (enable it per project afterwards). Event: environment-created. Limit: `environments`.",
    args: { input: t.arg({ type: CreateEnvironmentInput, required: true, description: "The environment." }) },
    authScopes: { permission: { permission: PERMISSIONS.CREATE_ENVIRONMENT } },
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        const created = await createEnvironment(
          w,
          {
            name: args.input.name,
            type: args.input.type,
            enabled: args.input.enabled ?? undefined,
            sortOrder: args.input.sortOrder ?? undefined,
          },
          ctx.config.limits.environments,
        );
        return w.tx.environment.findUniqueOrThrow({ ...query, where: { name: created.name } });
      });
    },
  }),
);

builder.mutationField("updateEnvironment", (t) =>
  t.prismaField({
    type: "Environment",
    description:
      "Changes an environment's type or sortOrder. Event: environment-updated (none when unchanged).",
    args: {
      name: t.arg.string({ required: true, description: "Environment name." }),
      input: t.arg({ type: UpdateEnvironmentInput, required: true, description: "The changes." }),
    },
    authScopes: { permission: { permission: PERMISSIONS.UPDATE_ENVIRONMENT } },
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        await updateEnvironment(w, args.name, {
          type: args.input.type ?? undefined,
          sortOrder: args.input.sortOrder ?? undefined,
        });
        return w.tx.environment.findUniqueOrThrow({ ...query, where: { name: args.name } });
      });
    },
  }),
);
