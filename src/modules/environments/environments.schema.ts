import { builder } from "../../builder.ts";

export const EnvironmentRef = builder.prismaObject("Environment", {
  description: "A deployment environment (development, production, ...), shared by all projects.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Unique name, used in paths and tokens." }),
    type: t.exposeString("type", { description: "Environment type, e.g. development or production." }),
    sortOrder: t.exposeInt("sortOrder", { description: "Position in lists, ascending." }),
    enabled: t.exposeBoolean("enabled", { description: "Disabled environments are hidden from new flags." }),
    protected: t.exposeBoolean("protected", { description: "Protected environments cannot be deleted." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the environment was created." }),
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
