import { builder } from "../../builder.ts";
import type { Context } from "../../context.ts";
import { integerKey, NODE_ID, type NodeAccess } from "../../shared/node-ids.ts";
import { runWrite } from "../../shared/write.ts";
import { requirePermission } from "../access/check.logic.ts";
import { can } from "../access/grant-check.logic.ts";
import { PERMISSIONS, type Permission } from "../access/permissions.logic.ts";
import { apiTokenById, createApiToken, deleteApiToken, updateApiTokenExpiry } from "./api-tokens.write.ts";
import { createPersonalToken, deletePersonalToken, requireUserId } from "./personal-tokens.write.ts";

export const ApiTokenRef = builder.prismaNode("ApiToken", {
  description: "An API token. Its secret is shown only once, when it is created.",
  id: { ...NODE_ID, field: "id" },
  nullable: true,
  findUnique: (id) => ({ id: integerKey(id) }),
  // as `apiTokens`: only the types the caller may read
  extensions: {
    nodeAccess: {
      check: (ctx) => requirePermission(ctx, { permission: PERMISSIONS.READ_CLIENT_API_TOKEN }),
      readable: (ctx, token) => readableTokenTypes(ctx).includes(token.type),
    } satisfies NodeAccess<{ type: string }>,
  },
  fields: (t) => ({
    databaseId: t.exposeInt("id", { description: "Token id (REST API and arguments)." }),
    tokenName: t.exposeString("tokenName", { description: "Name given at creation." }),
    type: t.exposeString("type", { description: "client, frontend or admin." }),
    environment: t.exposeString("environment", {
      description: "The one environment it serves, or * (admin).",
    }),
    projects: t.exposeStringList("projects", { description: "Project ids it serves, or [*]." }),
    displayPrefix: t.exposeString("displayPrefix", {
      description: "The non-secret start of the secret (`<project>:<environment>.`), to recognise it.",
    }),
    expiresAt: t.expose("expiresAt", {
      type: "DateTime",
      nullable: true,
      description: "Expiry; null: never.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was created." }),
    seenAt: t.expose("seenAt", {
      type: "DateTime",
      nullable: true,
      description: "Last use (to the minute).",
    }),
  }),
});

export const PersonalAccessTokenRef = builder.prismaNode("PersonalAccessToken", {
  description: "A personal access token (`user:...`), acting as its user. Its secret is shown only once.",
  id: { ...NODE_ID, field: "id" },
  nullable: true,
  findUnique: (id) => ({ id: integerKey(id) }),
  // as `personalAccessTokens`: only the caller's own
  extensions: {
    nodeAccess: {
      readable: (ctx, token) => token.userId === ctx.principal?.userId,
    } satisfies NodeAccess<{ userId: number }>,
  },
  fields: (t) => ({
    databaseId: t.exposeInt("id", { description: "Token id (REST API and arguments)." }),
    description: t.exposeString("description", { description: "What it is for." }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", description: "Expiry." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was created." }),
    seenAt: t.expose("seenAt", {
      type: "DateTime",
      nullable: true,
      description: "Last use (to the minute).",
    }),
  }),
});

export const CreatedApiTokenRef = builder
  .objectRef<{ token: { id: number }; secret: string }>("CreatedApiToken")
  .implement({
    description: "A new API token with its secret: store the secret now, it cannot be shown again.",
    fields: (t) => ({
      secret: t.exposeString("secret", { description: "The secret to send in the Authorization header." }),
      token: t.prismaField({
        type: "ApiToken",
        description: "The token.",
        resolve: (query, parent, _args, ctx) =>
          ctx.db.apiToken.findUniqueOrThrow({ ...query, where: { id: parent.token.id } }),
      }),
    }),
  });

const CreatedPersonalAccessTokenRef = builder
  .objectRef<{ token: { id: number }; secret: string }>("CreatedPersonalAccessToken")
  .implement({
    description: "A new personal access token with its secret: store the secret now.",
    fields: (t) => ({
      secret: t.exposeString("secret", { description: "The secret (`user:...`)." }),
      token: t.prismaField({
        type: "PersonalAccessToken",
        description: "The token.",
        resolve: (query, parent, _args, ctx) =>
          ctx.db.personalAccessToken.findUniqueOrThrow({ ...query, where: { id: parent.token.id } }),
      }),
    }),
  });

const READ_BY_TYPE: Record<string, Permission> = {
  client: PERMISSIONS.READ_CLIENT_API_TOKEN,
  frontend: PERMISSIONS.READ_FRONTEND_API_TOKEN,
  admin: PERMISSIONS.ADMIN,
};
/** The token types the caller may read (`apiTokens` and `node`). */
function readableTokenTypes(ctx: Context): string[] {
  const principal = ctx.principal;
  return Object.entries(READ_BY_TYPE)
    .filter(([, permission]) => principal && can(principal, { permission }))
    .map(([type]) => type);
}

const CREATE_BY_TYPE: Record<string, Permission> = {
  frontend: PERMISSIONS.CREATE_FRONTEND_API_TOKEN,
  admin: PERMISSIONS.ADMIN,
};
const DELETE_BY_TYPE: Record<string, Permission> = {
  client: PERMISSIONS.DELETE_CLIENT_API_TOKEN,
  frontend: PERMISSIONS.DELETE_FRONTEND_API_TOKEN,
  admin: PERMISSIONS.ADMIN,
};

builder.queryField("apiTokens", (t) =>
  t.prismaField({
    type: ["ApiToken"],
    description: "API tokens (without secrets), newest first; only the types the caller may read.",
    authScopes: { permission: { permission: PERMISSIONS.READ_CLIENT_API_TOKEN } },
    resolve: (query, _root, _args, ctx) => {
      const where = { type: { in: readableTokenTypes(ctx) } };
      return ctx.db.apiToken.findMany({ ...query, where, orderBy: { id: "desc" } });
    },
  }),
);

builder.queryField("apiTokensByName", (t) =>
  t.prismaField({
    type: ["ApiToken"],
    description:
      "The API tokens with this name (names are not unique), newest first; empty when none; only the types the caller may read.",
    authScopes: { permission: { permission: PERMISSIONS.READ_CLIENT_API_TOKEN } },
    args: { name: t.arg.string({ required: true, description: "The token name." }) },
    resolve: (query, _root, args, ctx) =>
      ctx.db.apiToken.findMany({
        ...query,
        where: { tokenName: args.name, type: { in: readableTokenTypes(ctx) } },
        orderBy: { id: "desc" },
      }),
  }),
);

builder.queryField("personalAccessTokens", (t) =>
  t.prismaField({
    type: ["PersonalAccessToken"],
    description: "The calling user's personal access tokens (without secrets); empty for API tokens.",
    authScopes: { authenticated: true },
    resolve: (query, _root, _args, ctx) =>
      ctx.db.personalAccessToken.findMany({
        ...query,
        where: { userId: ctx.principal?.userId ?? -1 },
        orderBy: { id: "asc" },
      }),
  }),
);

const CreateApiTokenInput = builder.inputType("CreateApiTokenInput", {
  description: "A new API token.",
  fields: (t) => ({
    tokenName: t.string({ required: true, description: "A name to recognise it by." }),
    type: t.string({ required: true, description: "client (or backend), frontend, or admin." }),
    environment: t.string({ description: "The one environment (client/frontend); default development." }),
    projects: t.stringList({ description: "Project ids, or [*] (default)." }),
    expiresAt: t.field({ type: "DateTime", description: "Expiry; default never." }),
  }),
});

builder.mutationField("createApiToken", (t) =>
  t.field({
    type: CreatedApiTokenRef,
    description: "Creates an API token and returns its secret once; records api-token-created.",
    args: { input: t.arg({ type: CreateApiTokenInput, required: true, description: "The token." }) },
    // REST also evaluates this on a body not yet validated (D-12): no type asks for the client permission.
    authScopes: (_root, args) => ({
      permission: {
        permission:
          CREATE_BY_TYPE[String((args.input as { type?: unknown } | undefined)?.type ?? "").toLowerCase()] ??
          PERMISSIONS.CREATE_CLIENT_API_TOKEN,
      },
    }),
    resolve: (_root, args, ctx) =>
      runWrite(ctx, (w) => createApiToken(w, args.input, ctx.config.limits.apiTokens)),
  }),
);

builder.mutationField("deleteApiToken", (t) =>
  t.boolean({
    description: "Revokes an API token at once; records api-token-deleted.",
    args: { id: t.arg.int({ required: true, description: "Token id." }) },
    authScopes: { permission: { permission: PERMISSIONS.DELETE_CLIENT_API_TOKEN } },
    resolve: async (_root, args, ctx) => {
      await runWrite(ctx, async (w) => {
        const token = await apiTokenById(w, args.id);
        requirePermission(ctx, { permission: DELETE_BY_TYPE[token.type] ?? PERMISSIONS.ADMIN });
        await deleteApiToken(w, args.id);
      });
      return true;
    },
  }),
);

const UPDATE_BY_TYPE: Record<string, Permission> = {
  client: PERMISSIONS.UPDATE_CLIENT_API_TOKEN,
  frontend: PERMISSIONS.UPDATE_FRONTEND_API_TOKEN,
  admin: PERMISSIONS.ADMIN,
};

builder.mutationField("updateApiTokenExpiry", (t) =>
  t.prismaField({
    type: "ApiToken",
    nullable: true,
    description:
      "Sets when the API token with this secret expires (a past instant expires it now); null, changing nothing, for a secret no token has (as Unleash). Records api-token-updated.",
    args: {
      secret: t.arg.string({ required: true, description: "The token's secret." }),
      expiresAt: t.arg({ type: "DateTime", required: true, description: "The new expiry." }),
    },
    authScopes: { permission: { permission: PERMISSIONS.UPDATE_CLIENT_API_TOKEN } },
    resolve: async (query, _root, args, ctx) => {
      const token = await runWrite(ctx, (w) =>
        updateApiTokenExpiry(w, args.secret, args.expiresAt, (found) =>
          requirePermission(ctx, { permission: UPDATE_BY_TYPE[found.type] ?? PERMISSIONS.ADMIN }),
        ),
      );
      return token && ctx.db.apiToken.findUnique({ ...query, where: { id: token.id } });
    },
  }),
);

const CreatePersonalAccessTokenInput = builder.inputType("CreatePersonalAccessTokenInput", {
  description: "A new personal access token.",
  fields: (t) => ({
    description: t.string({ required: true, description: "What it is for." }),
    expiresAt: t.field({ type: "DateTime", required: true, description: "Expiry (in the future)." }),
  }),
});

builder.mutationField("createPersonalAccessToken", (t) =>
  t.field({
    type: CreatedPersonalAccessTokenRef,
    description: "Creates a token acting as the calling user; returns its secret once; records pat-created.",
    args: {
      input: t.arg({ type: CreatePersonalAccessTokenInput, required: true, description: "The token." }),
    },
    authScopes: { authenticated: true },
    resolve: (_root, args, ctx) => {
      const userId = requireUserId(ctx.principal?.userId ?? null);
      return runWrite(ctx, (w) => createPersonalToken(w, userId, args.input));
    },
  }),
);

builder.mutationField("deletePersonalAccessToken", (t) =>
  t.boolean({
    description: "Deletes one of the calling user's tokens; records pat-deleted.",
    args: { id: t.arg.int({ required: true, description: "Token id." }) },
    authScopes: { authenticated: true },
    resolve: async (_root, args, ctx) => {
      const userId = requireUserId(ctx.principal?.userId ?? null);
      await runWrite(ctx, (w) => deletePersonalToken(w, userId, args.id));
      return true;
    },
  }),
);
