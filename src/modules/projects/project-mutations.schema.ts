import { builder } from "../../builder.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { principalOf } from "../change-requests/resolve.schema.ts";
import { StrategyInput } from "../feature-environments/strategy-inputs.schema.ts";
import type { DefaultStrategyInput } from "./default-strategy.write.ts";
import { archiveProject, createProject, reviveProject, updateProject } from "./project.write.ts";
import { addProjectEnvironment, disableProjectEnvironment } from "./project-environments.write.ts";

const CreateProjectInput = builder.inputType("CreateProjectInput", {
  description: "A new project.",
  fields: (t) => ({
    id: t.string({
      description: "URL-friendly unique id (letters, digits, - . _ ~); derived from the name when absent.",
    }),
    name: t.string({ required: true, description: "Display name, 1 to 100 characters." }),
    description: t.string({ description: "Free text." }),
    environments: t.stringList({
      description: "Environments to enable for the project; default every enabled environment.",
    }),
  }),
});

const UpdateProjectInput = builder.inputType("UpdateProjectInput", {
  description: "Changes to a project; absent fields stay as they are.",
  fields: (t) => ({
    name: t.string({ description: "Display name, 1 to 100 characters." }),
    description: t.string({ description: "Free text; null clears it." }),
  }),
});

builder.mutationField("createProject", (t) =>
  t.prismaField({
    type: "Project",
    description: "Creates a project with its environments. Event: project-created. Limit: `projects`.",
    args: { input: t.arg({ type: CreateProjectInput, required: true, description: "The project." }) },
    authScopes: { permission: { permission: PERMISSIONS.CREATE_PROJECT } },
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        const created = await createProject(w, args.input, ctx.config.limits.projects);
        return w.tx.project.findUniqueOrThrow({ ...query, where: { id: created.id } });
      });
    },
  }),
);

builder.mutationField("updateProject", (t) =>
  t.prismaField({
    type: "Project",
    description: "Changes a project's name or description. Event: project-updated (none when unchanged).",
    args: {
      id: t.arg.string({ required: true, description: "Project id." }),
      input: t.arg({ type: UpdateProjectInput, required: true, description: "The changes." }),
    },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.UPDATE_PROJECT, project: args.id },
    }),
    resolve: async (query, _root, args, ctx) => {
      await runWrite(ctx, (w) =>
        updateProject(w, args.id, {
          name: args.input.name ?? undefined,
          // An explicit null clears the description; an absent field keeps it.
          description: args.input.description,
        }),
      );
      return ctx.db.project.findUniqueOrThrow({ ...query, where: { id: args.id } });
    },
  }),
);

builder.mutationField("archiveProject", (t) =>
  t.prismaField({
    type: "Project",
    description:
      "Archives a project without active flags (INVALID_OPERATION otherwise). Event: project-archived.",
    args: { id: t.arg.string({ required: true, description: "Project id." }) },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.DELETE_PROJECT, project: args.id },
    }),
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        await archiveProject(w, args.id);
        return w.tx.project.findUniqueOrThrow({ ...query, where: { id: args.id } });
      });
    },
  }),
);

builder.mutationField("reviveProject", (t) =>
  t.prismaField({
    type: "Project",
    description: "Brings an archived project back. Event: project-revived. Limit: `projects`.",
    args: { id: t.arg.string({ required: true, description: "Project id." }) },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.DELETE_PROJECT, project: args.id },
    }),
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        await reviveProject(w, args.id, ctx.config.limits.projects);
        return w.tx.project.findUniqueOrThrow({ ...query, where: { id: args.id } });
      });
    },
  }),
);

builder.mutationField("enableProjectEnvironment", (t) =>
  t.prismaField({
    type: "Project",
    description:
      "Enables an environment for a project; its flags get a disabled state there. Event: project-environment-added. Optionally, in the same transaction, sets the project's default strategy there (as setProjectDefaultStrategy; event default-strategy-updated) and turns change requests on or off there (as updateChangeRequestConfig, 1 approval; event change-request-configuration-updated, only when the setting changes). A refused option adds nothing.",
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      environment: t.arg.string({ required: true, description: "Environment name." }),
      defaultStrategy: t.arg({
        type: StrategyInput,
        description:
          "The strategy a flag gets when enabled there without strategies; validated as setProjectDefaultStrategy validates it.",
      }),
      changeRequestsEnabled: t.arg.boolean({
        description:
          "Require change requests there (true: 1 approval). Absent, or equal to the current setting: nothing changes. Turning off a setting the project kept from earlier needs an Admin.",
      }),
    },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.UPDATE_PROJECT, project: args.project },
    }),
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        await addProjectEnvironment(
          w,
          principalOf(ctx),
          args.project,
          args.environment,
          {
            defaultStrategy: args.defaultStrategy as DefaultStrategyInput | null | undefined,
            changeRequestsEnabled: args.changeRequestsEnabled,
          },
          ctx.config.limits,
        );
        return w.tx.project.findUniqueOrThrow({ ...query, where: { id: args.project } });
      });
    },
  }),
);

builder.mutationField("disableProjectEnvironment", (t) =>
  t.prismaField({
    type: "Project",
    description:
      "Disables an environment for a project, deleting its flags' state and strategies there. Event: project-environment-removed.",
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      environment: t.arg.string({ required: true, description: "Environment name." }),
    },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.UPDATE_PROJECT, project: args.project },
    }),
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        await disableProjectEnvironment(w, ctx.principal, args.project, args.environment);
        return w.tx.project.findUniqueOrThrow({ ...query, where: { id: args.project } });
      });
    },
  }),
);
