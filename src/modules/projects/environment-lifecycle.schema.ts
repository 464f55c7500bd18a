import { builder } from "../../builder.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { environmentForQuery } from "../environments/environment.read.ts";
import { EnvironmentRef } from "../environments/environments.schema.ts";
import { cloneEnvironment, deleteEnvironment } from "./environment-lifecycle.write.ts";

const CloneEnvironmentInput = builder.inputType("CloneEnvironmentInput", {
  description: "The copy of an environment.",
  fields: (t) => ({
    name: t.string({ required: true, description: "Unique URL-friendly name (letters, digits, - . _ ~)." }),
    type: t.string({ required: true, description: "Environment type, e.g. development, test, production." }),
    sortOrder: t.int({ description: "Position in lists, ascending; default the source's." }),
    projects: t.stringList({
      description:
        "Projects to clone it in (each must have the source enabled); default every project that has it.",
    }),
  }),
});

builder.mutationFields((t) => ({
  deleteEnvironment: t.boolean({
    description:
      "Deletes an environment: removed from every project first (project-environment-removed each; its flags' configuration there is gone), then environment-deleted. Refused: protected (INVALID_OPERATION), API tokens or open change requests for it (CONFLICT), a project's last environment (INVALID_OPERATION), change requests required there without SKIP_CHANGE_REQUEST.",
    args: { name: t.arg.string({ required: true, description: "Environment name." }) },
    authScopes: { permission: { permission: PERMISSIONS.DELETE_ENVIRONMENT } },
    resolve: async (_root, args, ctx) => {
      await runWrite(ctx, (w) => deleteEnvironment(w, ctx.principal, args.name));
      return true;
    },
  }),
  cloneEnvironment: t.prismaField({
    type: EnvironmentRef,
    description:
      "Creates an environment as a copy of another: enabled in its projects (or those listed) with every flag's on/off, variants and strategies there. Events: environment-created, project-environment-added per project. Change-request settings are not copied. Limit: `environments`.",
    args: {
      name: t.arg.string({ required: true, description: "The environment to copy." }),
      input: t.arg({ type: CloneEnvironmentInput, required: true, description: "The copy." }),
    },
    authScopes: { permission: { permission: PERMISSIONS.CREATE_ENVIRONMENT } },
    resolve: (query, _root, args, ctx) =>
      runWrite(ctx, async (w) => {
        const created = await cloneEnvironment(
          w,
          args.name,
          {
            name: args.input.name,
            type: args.input.type,
            sortOrder: args.input.sortOrder ?? undefined,
            projects: args.input.projects,
          },
          ctx.config.limits.environments,
        );
        return environmentForQuery(w.tx, query, created.name);
      }),
  }),
}));
