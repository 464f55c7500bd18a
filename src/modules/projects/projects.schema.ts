import { builder } from "../../builder.ts";
import { EnvironmentRef } from "../environments/environments.schema.ts";

builder.prismaObject("Project", {
  description: "A project groups flags, and chooses which environments they have.",
  fields: (t) => ({
    id: t.exposeString("id", { description: "URL-friendly unique id." }),
    name: t.exposeString("name", { description: "Display name." }),
    description: t.exposeString("description", { nullable: true, description: "Free text." }),
    health: t.exposeInt("health", {
      description: "Share (0-100) of the project's active flags that are not (potentially) stale.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the project was created." }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When the project was last changed." }),
    archivedAt: t.expose("archivedAt", {
      type: "DateTime",
      nullable: true,
      description: "When archived; null while active.",
    }),
    environments: t.field({
      type: [EnvironmentRef],
      description: "Environments enabled for this project, ordered by sortOrder then name.",
      select: (_args, _ctx, nestedSelection) => ({
        environments: {
          select: { environment: nestedSelection(true) },
          orderBy: [{ environment: { sortOrder: "asc" } }, { environmentName: "asc" }],
        },
      }),
      resolve: (project) => project.environments.map((pe) => pe.environment),
    }),
    featureCount: t.relationCount("features", {
      where: { archivedAt: null },
      description: "Number of active (non-archived) flags.",
    }),
  }),
});

builder.queryField("projects", (t) =>
  t.prismaField({
    type: ["Project"],
    description: "Active projects, ordered by name (archived ones with `archived: true`).",
    authScopes: { authenticated: true },
    args: {
      archived: t.arg.boolean({ defaultValue: false, description: "List archived projects instead." }),
    },
    resolve: (query, _root, args, ctx) =>
      ctx.db.project.findMany({
        ...query,
        where: { archivedAt: args.archived ? { not: null } : null },
        orderBy: { name: "asc" },
      }),
  }),
);

builder.queryField("project", (t) =>
  t.prismaField({
    type: "Project",
    nullable: true,
    description: "One project by id, or null when it does not exist.",
    authScopes: { authenticated: true },
    args: { id: t.arg.string({ required: true, description: "Project id." }) },
    resolve: (query, _root, args, ctx) => ctx.db.project.findUnique({ ...query, where: { id: args.id } }),
  }),
);
