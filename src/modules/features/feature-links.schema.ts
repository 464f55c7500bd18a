import { builder } from "../../builder.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { addFeatureLink, removeFeatureLink, updateFeatureLink } from "./feature-links.write.ts";

builder.prismaObject("FeatureLink", {
  description: "A link from a flag to something about it (an issue, a dashboard, a code search).",
  fields: (t) => ({
    id: t.exposeString("id", { description: "The link's id (Unleash's `linkId`)." }),
    url: t.exposeString("url", { description: "The URL, as stored (https:// assumed when none was given)." }),
    title: t.exposeString("title", { nullable: true, description: "What the link is." }),
    feature: t.exposeString("featureName", { description: "The flag it belongs to." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was added." }),
  }),
});

builder.prismaObjectFields("Feature", (t) => ({
  links: t.relation("links", {
    description: "Links to things about the flag, oldest first (at most 10).",
    query: { orderBy: [{ createdAt: "asc" }, { id: "asc" }] },
  }),
}));

const LinkInput = builder.inputType("FeatureLinkInput", {
  description: "A flag link.",
  fields: (t) => ({
    url: t.string({
      required: true,
      description: "An http(s) URL; https:// is assumed when no scheme is given.",
    }),
    title: t.string({ description: "What the link is." }),
  }),
});

const scope = (_root: unknown, args: { project: string }) => ({
  permission: { permission: PERMISSIONS.UPDATE_FEATURE, project: args.project },
});

builder.mutationFields((t) => ({
  addFeatureLink: t.prismaField({
    type: "FeatureLink",
    description:
      "Adds a link to a flag (at most 10: INVALID_OPERATION past that; VALIDATION for a URL that is not http(s)). Event: feature-link-added.",
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      feature: t.arg.string({ required: true, description: "Flag name." }),
      input: t.arg({ type: LinkInput, required: true, description: "The link." }),
    },
    authScopes: scope,
    resolve: (query, _root, args, ctx) =>
      runWrite(ctx, async (w) => {
        const link = await addFeatureLink(w, args.project, args.feature, args.input);
        return w.tx.featureLink.findUniqueOrThrow({ ...query, where: { id: link.id } });
      }),
  }),
  updateFeatureLink: t.prismaField({
    type: "FeatureLink",
    description:
      "Replaces a link's URL and title; NOT_FOUND for a link the flag does not have. Event: feature-link-updated (none when unchanged).",
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      feature: t.arg.string({ required: true, description: "Flag name." }),
      id: t.arg.string({ required: true, description: "The link's id." }),
      input: t.arg({ type: LinkInput, required: true, description: "The link." }),
    },
    authScopes: scope,
    resolve: (query, _root, args, ctx) =>
      runWrite(ctx, async (w) => {
        await updateFeatureLink(w, args.project, args.feature, args.id, args.input);
        return w.tx.featureLink.findUniqueOrThrow({ ...query, where: { id: args.id } });
      }),
  }),
  removeFeatureLink: t.prismaField({
    type: "FeatureLink",
    description:
      "Deletes a link and returns it as it was; NOT_FOUND for a link the flag does not have. Event: feature-link-removed.",
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      feature: t.arg.string({ required: true, description: "Flag name." }),
      id: t.arg.string({ required: true, description: "The link's id." }),
    },
    authScopes: scope,
    resolve: async (query, _root, args, ctx) => {
      const before = await ctx.db.featureLink.findUnique({ ...query, where: { id: args.id } });
      await runWrite(ctx, (w) => removeFeatureLink(w, args.project, args.feature, args.id));
      return before as NonNullable<typeof before>;
    },
  }),
}));
