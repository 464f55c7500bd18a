import { builder } from "../../builder.ts";
import { found } from "../../shared/found.ts";
import { NODE_ID } from "../../shared/node-ids.ts";
import { EnvironmentRef } from "../environments/environments.schema.ts";

builder.prismaNode("Project", {
  description: "A project groups flags, and chooses which environments they have.",
  nullable: true,
  id: { ...NODE_ID, field: "id" },
  fields: (t) => ({
    databaseId: t.exposeString("id", {
      description: "URL-friendly unique id: the project's id in the REST API and in arguments.",
    }),
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
    featureCount: t.int({
      description: "Number of active (non-archived) flags.",
      resolve: async (project, _args, ctx) => (await ctx.loaders.projectFlagCounts.load(project.id)).total,
    }),
    staleFeatureCount: t.int({
      description: "Number of active flags marked stale.",
      resolve: async (project, _args, ctx) => (await ctx.loaders.projectFlagCounts.load(project.id)).stale,
    }),
    potentiallyStaleFeatureCount: t.int({
      description: "Number of active flags, not marked stale, older than their type's expected lifetime.",
      resolve: async (project, _args, ctx) =>
        (await ctx.loaders.projectFlagCounts.load(project.id)).potentiallyStale,
    }),
    memberCount: t.int({
      description: "Number of distinct users with a role in the project.",
      select: { members: { select: { userId: true } } },
      resolve: (project) => new Set(project.members.map((m) => m.userId)).size,
    }),
    mode: t.string({
      description: "Collaboration mode; always `open` (private projects are an Unleash Enterprise feature).",
      resolve: () => "open",
    }),
    defaultStickiness: t.exposeString("defaultStickiness", {
      description: "Stickiness proposed for new strategies and variants of the project's flags.",
    }),
    featureLimit: t.exposeInt("featureLimit", {
      nullable: true,
      description: "Maximum number of active flags in the project; null means only the instance limit.",
    }),
    features: t.relation("features", {
      description: "The project's active flags, by name.",
      query: { where: { archivedAt: null }, orderBy: { name: "asc" } },
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

builder.queryField("projectOverview", (t) =>
  t.prismaField({
    type: "Project",
    description: "One project by id (archived ones too); fails with NOT_FOUND when it does not exist.",
    authScopes: { authenticated: true },
    args: { id: t.arg.string({ required: true, description: "Project id." }) },
    resolve: async (query, _root, args, ctx) =>
      found(
        await ctx.db.project.findUnique({ ...query, where: { id: args.id } }),
        `project with id "${args.id}"`,
      ),
  }),
);
