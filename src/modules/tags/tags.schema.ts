import { builder } from "../../builder.ts";
import { found } from "../../shared/found.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { createTag, createTagType, deleteTag, deleteTagType, updateTagType } from "./tag.write.ts";

builder.prismaObject("TagType", {
  description: "A kind of tag (simple, team, ...); tags are `{type, value}` pairs of a type.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Unique URL-friendly name, 2 to 50 characters." }),
    description: t.exposeString("description", { nullable: true, description: "Free text." }),
    icon: t.exposeString("icon", { nullable: true, description: "Icon name shown next to the tags." }),
    color: t.exposeString("color", { nullable: true, description: "Hex colour of the tags, e.g. #1a2b3c." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the type was created." }),
    tagCount: t.relationCount("tags", { description: "Number of tags of this type." }),
  }),
});

builder.prismaObject("Tag", {
  // "Tag" is the `{type, value}` a flag carries (features module); this is the tag itself.
  name: "TagDefinition",
  description: "A tag that exists in the catalogue: a value of a tag type, attachable to flags.",
  fields: (t) => ({
    type: t.exposeString("type", { description: "Tag type name." }),
    value: t.exposeString("value", { description: "The value, 2 to 50 characters." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the tag was created." }),
    featureCount: t.relationCount("features", { description: "Number of flags carrying the tag." }),
  }),
});

builder.queryField("tagTypes", (t) =>
  t.prismaField({
    type: ["TagType"],
    description: "Every tag type, by name.",
    authScopes: { authenticated: true },
    resolve: (query, _root, _args, ctx) => ctx.db.tagType.findMany({ ...query, orderBy: { name: "asc" } }),
  }),
);

builder.queryField("tagType", (t) =>
  t.prismaField({
    type: "TagType",
    description: "One tag type by name; fails with NOT_FOUND when there is none.",
    authScopes: { authenticated: true },
    args: { name: t.arg.string({ required: true, description: "Tag type name." }) },
    resolve: async (query, _root, args, ctx) =>
      found(
        await ctx.db.tagType.findUnique({ ...query, where: { name: args.name } }),
        `tag type "${args.name}"`,
      ),
  }),
);

builder.queryField("tags", (t) =>
  t.prismaField({
    type: ["Tag"],
    description: "Tags, by type then value; only those of one type with `type`.",
    authScopes: { authenticated: true },
    args: { type: t.arg.string({ description: "Only tags of this tag type." }) },
    resolve: (query, _root, args, ctx) =>
      ctx.db.tag.findMany({
        ...query,
        where: args.type ? { type: args.type } : {},
        orderBy: [{ type: "asc" }, { value: "asc" }],
      }),
  }),
);

builder.queryField("tag", (t) =>
  t.prismaField({
    type: "Tag",
    description: "One tag; fails with NOT_FOUND when there is none.",
    authScopes: { authenticated: true },
    args: {
      type: t.arg.string({ required: true, description: "Tag type name." }),
      value: t.arg.string({ required: true, description: "Tag value." }),
    },
    resolve: async (query, _root, args, ctx) =>
      found(
        await ctx.db.tag.findUnique({
          ...query,
          where: { type_value: { type: args.type, value: args.value } },
        }),
        `tag "${args.type}:${args.value}"`,
      ),
  }),
);

export const CreateTagTypeInput = builder.inputType("CreateTagTypeInput", {
  description: "A new tag type.",
  fields: (t) => ({
    name: t.string({ required: true, description: "Unique URL-friendly name, 2 to 50 characters." }),
    description: t.string({ description: "Free text." }),
    icon: t.string({ description: "Icon name." }),
    color: t.string({ description: "Hex colour, e.g. #1a2b3c." }),
  }),
});

const UpdateTagTypeInput = builder.inputType("UpdateTagTypeInput", {
  description: "Changes to a tag type; absent fields stay as they are, null clears one.",
  fields: (t) => ({
    description: t.string({ description: "Free text." }),
    icon: t.string({ description: "Icon name." }),
    color: t.string({ description: "Hex colour, e.g. #1a2b3c." }),
  }),
});

const CreateTagInput = builder.inputType("CreateTagInput", {
  description: "A new tag.",
  fields: (t) => ({
    type: t.string({ required: true, description: "Tag type (must exist)." }),
    value: t.string({ required: true, description: "Value, 2 to 50 characters (trimmed)." }),
  }),
});

builder.mutationField("createTagType", (t) =>
  t.prismaField({
    type: "TagType",
    description: "Creates a tag type. Event: tag-type-created.",
    args: { input: t.arg({ type: CreateTagTypeInput, required: true, description: "The tag type." }) },
    authScopes: { permission: { permission: PERMISSIONS.CREATE_TAG_TYPE } },
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        const created = await createTagType(w, args.input);
        return w.tx.tagType.findUniqueOrThrow({ ...query, where: { name: created.name } });
      });
    },
  }),
);

builder.mutationField("updateTagType", (t) =>
  t.prismaField({
    type: "TagType",
    description: "Changes a tag type. Event: tag-type-updated (none when unchanged).",
    args: {
      name: t.arg.string({ required: true, description: "Tag type name." }),
      input: t.arg({ type: UpdateTagTypeInput, required: true, description: "The changes." }),
    },
    authScopes: { permission: { permission: PERMISSIONS.UPDATE_TAG_TYPE } },
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        await updateTagType(w, args.name, args.input);
        return w.tx.tagType.findUniqueOrThrow({ ...query, where: { name: args.name } });
      });
    },
  }),
);

builder.mutationField("deleteTagType", (t) =>
  t.prismaField({
    type: "TagType",
    description:
      "Deletes a tag type with all its tags, untagging the flags that carried them; returns the type as it was. Event: tag-type-deleted.",
    args: { name: t.arg.string({ required: true, description: "Tag type name." }) },
    authScopes: { permission: { permission: PERMISSIONS.DELETE_TAG_TYPE } },
    resolve: async (query, _root, args, ctx) => {
      // Read before deleting: the answer shows the type as it was (tag count included).
      const before = await ctx.db.tagType.findUnique({ ...query, where: { name: args.name } });
      await runWrite(ctx, (w) => deleteTagType(w, args.name));
      return before as NonNullable<typeof before>;
    },
  }),
);

builder.mutationField("createTag", (t) =>
  t.prismaField({
    type: "Tag",
    description: "Creates a tag of an existing type. Event: tag-created.",
    args: { input: t.arg({ type: CreateTagInput, required: true, description: "The tag." }) },
    authScopes: { permission: { permission: PERMISSIONS.UPDATE_FEATURE } },
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        const tag = await createTag(w, args.input);
        return w.tx.tag.findUniqueOrThrow({
          ...query,
          where: { type_value: { type: tag.type, value: tag.value } },
        });
      });
    },
  }),
);

builder.mutationField("deleteTag", (t) =>
  t.prismaField({
    type: "Tag",
    description:
      "Deletes a tag, untagging every flag that carried it; returns the tag as it was. Event: tag-deleted.",
    args: {
      type: t.arg.string({ required: true, description: "Tag type name." }),
      value: t.arg.string({ required: true, description: "Tag value." }),
    },
    authScopes: { permission: { permission: PERMISSIONS.UPDATE_FEATURE } },
    resolve: async (query, _root, args, ctx) => {
      const where = { type_value: { type: args.type, value: args.value } };
      const before = await ctx.db.tag.findUnique({ ...query, where });
      await runWrite(ctx, (w) => deleteTag(w, args.type, args.value));
      return before as NonNullable<typeof before>;
    },
  }),
);
