import { queryFromInfo } from "@pothos/plugin-prisma";
import { builder } from "../../builder.ts";
import { type Connection, pageRequest, prismaPage, toConnection } from "../../shared/pagination.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { FeatureRef } from "./feature.schema.ts";
import { createFeature } from "./feature-create.write.ts";

const FeatureConnection = builder.connectionObject({
  type: FeatureRef,
  name: "FeatureConnection",
  fields: (t) => ({
    totalCount: t.int({
      description: "Number of flags matching, across all pages.",
      resolve: (c) => (c as unknown as Connection<unknown>).totalCount,
    }),
  }),
});

builder.queryField("feature", (t) =>
  t.prismaField({
    type: "Feature",
    nullable: true,
    description: "One flag by name (archived ones too), or null when there is none.",
    authScopes: { authenticated: true },
    args: { name: t.arg.string({ required: true, description: "Flag name." }) },
    resolve: (query, _root, args, ctx) => ctx.db.feature.findUnique({ ...query, where: { name: args.name } }),
  }),
);

/** Newest first; the unique name breaks ties. */
const NEWEST_FIRST = [
  { field: "createdAt", descending: true },
  { field: "name", descending: false },
];

builder.queryField("features", (t) =>
  t.field({
    type: FeatureConnection,
    description: "Flags, optionally of one project, newest first.",
    authScopes: { authenticated: true },
    args: {
      project: t.arg.string({ description: "Only flags of this project." }),
      archived: t.arg.boolean({ defaultValue: false, description: "Archived flags instead of active ones." }),
      first: t.arg.int({ description: "Page size (default 50, at most 1000)." }),
      after: t.arg.string({ description: "Cursor of the last flag of the previous page." }),
      last: t.arg.int({ description: "Page size counted from the end (with `before`)." }),
      before: t.arg.string({ description: "Cursor of the first flag of the next page (pages backwards)." }),
      offset: t.arg.int({ description: "Flags to skip (alternative to `after`)." }),
    },
    resolve: async (_root, args, ctx, info) => {
      const request = pageRequest(args, { defaultLimit: 50, maxLimit: 1000 }, { name: "newest", size: 2 });
      const where = {
        ...(args.project ? { projectId: args.project } : {}),
        archivedAt: args.archived ? { not: null } : null,
      };
      const page = prismaPage(request, NEWEST_FIRST);
      const [items, total] = await Promise.all([
        ctx.db.feature.findMany({
          ...(queryFromInfo({ context: ctx, info, typeName: "Feature", path: ["edges", "node"] }) as object),
          ...page,
          where: { AND: [where, page.where] },
        }),
        ctx.db.feature.count({ where }),
      ]);
      return toConnection(items, request, total, (f) => [f.createdAt.toISOString(), f.name]);
    },
  }),
);

export const TagInput = builder.inputType("TagInput", {
  description: "A tag reference.",
  fields: (t) => ({
    type: t.string({ required: true, description: "Tag type (must exist)." }),
    value: t.string({ required: true, description: "Tag value, 2 to 50 characters." }),
  }),
});

const CreateFeatureInput = builder.inputType("CreateFeatureInput", {
  description: "A new flag.",
  fields: (t) => ({
    name: t.string({ required: true, description: "Unique URL-friendly name (letters, digits, - . _ ~)." }),
    type: t.string({ description: "Flag type; default release." }),
    description: t.string({ description: "Free text." }),
    impressionData: t.boolean({ description: "Emit impression events; default false." }),
    tags: t.field({ type: [TagInput], description: "Initial tags (their types must exist)." }),
  }),
});

builder.mutationField("createFeature", (t) =>
  t.prismaField({
    type: "Feature",
    description: "Creates a flag, off in every environment of its project. Event: feature-created.",
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      input: t.arg({ type: CreateFeatureInput, required: true, description: "The flag." }),
    },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.CREATE_FEATURE, project: args.project },
    }),
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        const created = await createFeature(
          w,
          args.project,
          {
            name: args.input.name,
            type: args.input.type ?? undefined,
            description: args.input.description,
            impressionData: args.input.impressionData ?? undefined,
            tags: args.input.tags ?? undefined,
          },
          ctx.config.limits.featureFlags,
        );
        return w.tx.feature.findUniqueOrThrow({ ...query, where: { name: created.name } });
      });
    },
  }),
);

const FeatureTypeRef = builder.prismaObject("FeatureType", {
  description: "A kind of flag and how long such flags are expected to live (potentially-stale after that).",
  fields: (t) => ({
    id: t.exposeString("id", { description: "release, experiment, operational, kill-switch or permission." }),
    name: t.exposeString("name", { description: "Display name." }),
    description: t.exposeString("description", { nullable: true, description: "What the type is for." }),
    lifetimeDays: t.exposeInt("lifetimeDays", {
      nullable: true,
      description: "Days until a flag of this type is potentially stale; null: never.",
    }),
  }),
});

builder.queryField("featureTypes", (t) =>
  t.prismaField({
    type: [FeatureTypeRef],
    description: "The flag types, in id order.",
    authScopes: { authenticated: true },
    resolve: (query, _root, _args, ctx) => ctx.db.featureType.findMany({ ...query, orderBy: { id: "asc" } }),
  }),
);
