import { builder } from "../../builder.ts";
import { NODE_ID, type NodeAccess } from "../../shared/node-ids.ts";
import { runWrite } from "../../shared/write.ts";
import { requirePermission } from "../access/check.logic.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { UserRef } from "../users/users.schema.ts";
import { createInvite, inviteUrl, updateInvite } from "./invites.write.ts";

const ADMIN_ONLY = { permission: { permission: PERMISSIONS.ADMIN } };

builder.prismaNode("PublicSignupToken", {
  description:
    "A public invite link (Unleash's public signup token): whoever holds its secret may sign up with its root role while it is enabled and unexpired.",
  id: { ...NODE_ID, field: "secret" },
  nullable: true,
  findUnique: (secret) => ({ secret }),
  // as `publicSignupToken`: admins only
  extensions: {
    nodeAccess: {
      check: (ctx) => requirePermission(ctx, ADMIN_ONLY.permission),
    } satisfies NodeAccess<object>,
  },
  fields: (t) => ({
    secret: t.exposeString("secret", { description: "The link's secret (part of its URL)." }),
    url: t.string({
      description: "The sign-up page URL carrying the secret.",
      resolve: (token, _args, ctx) => inviteUrl(ctx.config.publicUrl, token.secret),
    }),
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

builder.queryField("publicSignupTokens", (t) =>
  t.prismaField({
    type: ["PublicSignupToken"],
    description: "Every invite link, newest first (admins only).",
    authScopes: ADMIN_ONLY,
    resolve: (query, _root, _args, ctx) =>
      ctx.db.publicSignupToken.findMany({ ...query, orderBy: [{ createdAt: "desc" }, { secret: "asc" }] }),
  }),
);

builder.queryField("publicSignupToken", (t) =>
  t.prismaField({
    type: "PublicSignupToken",
    nullable: true,
    description: "One invite link by its secret, or null (admins only).",
    authScopes: ADMIN_ONLY,
    args: { secret: t.arg.string({ required: true, description: "The link's secret." }) },
    resolve: (query, _root, args, ctx) =>
      ctx.db.publicSignupToken.findUnique({ ...query, where: { secret: args.secret } }),
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
  description: "Changes to an invite link; absent fields stay as they are.",
  fields: (t) => ({
    expiresAt: t.field({ type: "DateTime", description: "New expiry." }),
    enabled: t.boolean({ description: "False disables the link (Unleash's delete in the UI)." }),
  }),
});

builder.mutationField("createPublicSignupToken", (t) =>
  t.prismaField({
    type: "PublicSignupToken",
    description: "Makes an invite link (admins only); records public-signup-token-created.",
    authScopes: ADMIN_ONLY,
    args: { input: t.arg({ type: CreateInput, required: true, description: "The link." }) },
    resolve: (query, _root, args, ctx) =>
      runWrite(ctx, async (w) => {
        const token = await createInvite(w, args.input);
        return w.tx.publicSignupToken.findUniqueOrThrow({ ...query, where: { secret: token.secret } });
      }),
  }),
);

builder.mutationField("updatePublicSignupToken", (t) =>
  t.prismaField({
    type: "PublicSignupToken",
    description:
      "Changes an invite link's expiry or enabled flag (admins only); records public-signup-token-updated. Unknown secret: NOT_FOUND.",
    authScopes: ADMIN_ONLY,
    args: {
      secret: t.arg.string({ required: true, description: "The link's secret." }),
      input: t.arg({ type: UpdateInput, required: true, description: "The changes." }),
    },
    resolve: (query, _root, args, ctx) =>
      runWrite(ctx, async (w) => {
        await updateInvite(w, args.secret, args.input);
        return w.tx.publicSignupToken.findUniqueOrThrow({ ...query, where: { secret: args.secret } });
      }),
  }),
);
