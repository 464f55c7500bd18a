import { builder } from "../../builder.ts";
import { NameExistsError } from "../../shared/errors.ts";
import { parseInput } from "../../shared/validation.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { createTagTypeSchema } from "./tag.inputs.ts";
import { CreateTagTypeInput } from "./tags.schema.ts";

builder.queryField("validateTagType", (t) =>
  t.boolean({
    description:
      "Checks a tag type before creating it: true when valid and the name is free; VALIDATION for a malformed one, NAME_EXISTS for a taken name.",
    args: { input: t.arg({ type: CreateTagTypeInput, required: true, description: "The tag type." }) },
    authScopes: { permission: { permission: PERMISSIONS.UPDATE_TAG_TYPE } },
    resolve: async (_root, args, ctx) => {
      const data = parseInput(createTagTypeSchema, args.input);
      if (await ctx.db.tagType.findUnique({ where: { name: data.name }, select: { name: true } })) {
        throw new NameExistsError(`There's already a tag type with the name "${data.name}"`);
      }
      return true;
    },
  }),
);
