import { builder } from "../../builder.ts";
import { integerKey, NODE_ID, type NodeAccess } from "../../shared/node-ids.ts";
import { runWrite } from "../../shared/write.ts";
import { requirePermission } from "../access/check.logic.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { UserRef } from "../users/users.schema.ts";
import { createInvite, inviteUrl, inviteWhere, updateInvite } from "./invites.write.ts";

const ADMIN_ONLY = { permission: { permission: PERMISSIONS.ADMIN } };

builder.prismaNode("PublicSignupToken", {
  description:
    "A public invite link (Unleash's public signup token): whoever holds its secret may sign up with its root role while it is enabled and unexpired. Its secret and URL are shown once, when it is created: only the secret's hash is stored.",
  id: { ...NODE_ID, field: "id" },
  nullable: true,
  findUnique: (id) => ({ id: integerKey(id) }),
  // as `publicSignupToken`: admins only
  extensions: {
    nodeAccess: {
      check: (ctx) => requirePermission(ctx, ADMIN_ONLY.permission),
    } satisfies NodeAccess<object>,
  },
  fields: (t) => ({
    databaseId: t.exposeInt("id", { description: "Link id (REST paths and arguments)." }),
    name: t.exposeString("name", { description: "Display name." }),
    enabled: t.boolean({
      description: "Whether the link can be used now: false once disabled or expired.",
      select: { enabled: true, expiresAt: true },
      resolve: (token, _args, ctx) => token.enabled && token.expiresAt > ctx.now(),
    }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", description: "When the link stops working." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the link was made." }),
    createdBy: t.exposeString("createdBy", { nullable: true, description: "Who made it (name or email)." }),
    role: t.relation("role", { description: "The root role of users who sign up with it." }),
    users: t.field({
      type: [UserRef],
      description: "The users who signed up with it, by sign-up time.",
      select: { users: { include: { user: true }, orderBy: [{ createdAt: "asc" }, { userId: "asc" }] } },
      resolve: (token) => token.users.map((u) => u.user).filter((u) => u.deletedAt === null),
    }),
  }),
});

const CreatedPublicSignupTokenRef = builder
  .objectRef<{ token: { id: number }; secret: string }>("CreatedPublicSignupToken")
  .implement({
    description: "A new invite link with its secret and URL: share them now, they cannot be shown again.",
    fields: (t) => ({
      secret: t.exposeString("secret", { description: "The link's secret (part of its URL)." }),
      url: t.string({
        description: "The sign-up page URL carrying the secret.",
        resolve: (created, _args, ctx) => inviteUrl(ctx.config.publicUrl, created.secret),
      }),
      token: t.prismaField({
        type: "PublicSignupToken",
        description: "The link.",
        resolve: (query, created, _args, ctx) =>
          ctx.db.publicSignupToken.findUniqueOrThrow({ ...query, where: { id: created.token.id } }),
      }),
    }),
  });

builder.queryField("publicSignupTokens", (t) =>
  t.prismaField({
    type: ["PublicSignupToken"],
    description: "Every invite link, newest first (admins only).",
    authScopes: ADMIN_ONLY,
    resolve: (query, _root, _args, ctx) =>
      ctx.db.publicSignupToken.findMany({ ...query, orderBy: [{ createdAt: "desc" }, { id: "desc" }] }),
  }),
);

builder.queryField("publicSignupToken", (t) =>
  t.prismaField({
    type: "PublicSignupToken",
    nullable: true,
    description: "One invite link by its databaseId or by its secret (exactly one), or null (admins only).",
    authScopes: ADMIN_ONLY,
    args: {
      databaseId: t.arg.int({ description: "The link's id." }),
      secret: t.arg.string({ description: "The link's secret." }),
    },
    resolve: (query, _root, args, ctx) =>
      ctx.db.publicSignupToken.findUnique({ ...query, where: inviteWhere(args) }),
  }),
);

const CreateInput = builder.inputType("CreatePublicSignupTokenInput", {
  description: "A new invite link (its role is Viewer, as in Unleash).",
  fields: (t) => ({
    name: t.string({ required: true, description: "Display name." }),
    expiresAt: t.field({ type: "DateTime", required: true, description: "When it stops working." }),
  }),
});

const UpdateInput = builder.inputType("UpdatePublicSignupTokenInput", {
  description: "Changes to an invite link (at least one); absent fields stay as they are.",
  fields: (t) => ({
    expiresAt: t.field({ type: "DateTime", description: "New expiry." }),
    enabled: t.boolean({ description: "False disables the link (Unleash's delete in the UI)." }),
  }),
});

builder.mutationField("createPublicSignupToken", (t) =>
  t.field({
    type: CreatedPublicSignupTokenRef,
    description:
      "Makes an invite link (admins only) and returns its secret and URL once; records public-signup-token-created.",
    authScopes: ADMIN_ONLY,
    args: { input: t.arg({ type: CreateInput, required: true, description: "The link." }) },
    resolve: (_root, args, ctx) => runWrite(ctx, (w) => createInvite(w, args.input)),
  }),
);

builder.mutationField("updatePublicSignupToken", (t) =>
  t.prismaField({
    type: "PublicSignupToken",
    description:
      "Changes an invite link's expiry or enabled flag (admins only); records public-signup-token-updated. Named by its databaseId or its secret (exactly one); unknown: NOT_FOUND.",
    authScopes: ADMIN_ONLY,
    args: {
      databaseId: t.arg.int({ description: "The link's id." }),
      secret: t.arg.string({ description: "The link's secret." }),
      input: t.arg({ type: UpdateInput, required: true, description: "The changes." }),
    },
    resolve: (query, _root, args, ctx) =>
      runWrite(ctx, async (w) => {
        const { id } = await updateInvite(w, args, args.input);
        return w.tx.publicSignupToken.findUniqueOrThrow({ ...query, where: { id } });
      }),
  }),
);
