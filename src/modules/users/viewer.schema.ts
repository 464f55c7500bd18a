import { builder } from "../../builder.ts";
import type { Grant } from "../access/principal.types.ts";
import { myFlagNames, myProjectIds } from "./viewer.read.ts";

/** `viewer`: the caller as the context resolved it, with their projects and flags. */
const GrantRef = builder.objectRef<Grant>("Grant").implement({
  description: "A permission the caller holds, and where.",
  fields: (t) => ({
    permission: t.exposeString("permission", { description: "Permission name (ADMIN passes every check)." }),
    project: t.exposeString("project", { nullable: true, description: "The project; null: every project." }),
    environment: t.exposeString("environment", {
      nullable: true,
      description: "The environment; null: all.",
    }),
  }),
});

type ViewerShape = {
  kind: string;
  via: string;
  name: string;
  userId: number | null;
  rootRole: string | null;
  grants: Grant[];
};

const ViewerRef = builder.objectRef<ViewerShape>("Viewer").implement({
  description: "The caller: who they are, what they may do, their projects and flags.",
  fields: (t) => ({
    kind: t.exposeString("kind", { description: "user, admin-token, client-token or frontend-token." }),
    via: t.exposeString("via", { description: "api-token, pat or session." }),
    name: t.exposeString("name", { description: "Name written to events." }),
    rootRole: t.exposeString("rootRole", { nullable: true, description: "Root role." }),
    permissions: t.field({ type: [GrantRef], description: "Permissions held.", resolve: (v) => v.grants }),
    user: t.prismaField({
      type: "User",
      nullable: true,
      description: "The user behind the credential; null for API tokens.",
      resolve: (query, v, _args, ctx) =>
        v.userId === null || v.userId < 0
          ? null
          : ctx.db.user.findUnique({ ...query, where: { id: v.userId } }),
    }),
    projects: t.prismaField({
      type: ["Project"],
      description: "Active projects the caller holds a role in or favourited.",
      resolve: async (query, v, _args, ctx) =>
        ctx.db.project.findMany({
          ...query,
          where: { id: { in: await myProjectIds(ctx.db, v.userId) } },
          orderBy: { name: "asc" },
        }),
    }),
    flags: t.prismaField({
      type: ["Feature"],
      description: "Active flags the caller created or favourited, newest first (at most 100).",
      resolve: async (query, v, _args, ctx) =>
        ctx.db.feature.findMany({
          ...query,
          where: { name: { in: await myFlagNames(ctx.db, v.userId) } },
          orderBy: [{ createdAt: "desc" }, { name: "asc" }],
        }),
    }),
  }),
});

builder.queryField("viewer", (t) =>
  t.field({
    type: ViewerRef,
    description: "The caller (me, my permissions, my projects, my flags).",
    authScopes: { authenticated: true },
    resolve: (_root, _args, ctx) => ctx.principal as ViewerShape,
  }),
);
