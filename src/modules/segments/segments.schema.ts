import { builder } from "../../builder.ts";
import { integerKey, NODE_ID } from "../../shared/node-ids.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { ConstraintRef } from "../feature-environments/strategy.schema.ts";
import type { Constraint } from "../feature-environments/strategy.types.ts";
import { ConstraintInput } from "../feature-environments/strategy-inputs.schema.ts";
import type { SegmentInput } from "./segment.inputs.ts";
import { createSegment, deleteSegment, updateSegment } from "./segment.write.ts";

builder.prismaNode("Segment", {
  description: "A named, reusable set of constraints that strategies can attach.",
  nullable: true,
  id: { ...NODE_ID, field: "id" },
  findUnique: (id) => ({ id: integerKey(id) }),
  fields: (t) => ({
    databaseId: t.exposeInt("id", { description: "Numeric id, used in strategies' `segments`." }),
    name: t.exposeString("name", { description: "Unique name." }),
    description: t.exposeString("description", { nullable: true, description: "Free text." }),
    project: t.exposeString("projectId", {
      nullable: true,
      description: "Project the segment belongs to; null for a global segment.",
    }),
    constraints: t.field({
      type: [ConstraintRef],
      description: "All must hold for a context to be in the segment.",
      resolve: (s) => s.constraints as Constraint[],
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "Creation time." }),
    usedInFeatures: t.int({
      description: "Number of flags with a strategy using the segment.",
      select: { strategies: { select: { strategy: { select: { featureName: true } } } } },
      resolve: (s) => new Set(s.strategies.map((x) => x.strategy.featureName)).size,
    }),
    usedInProjects: t.int({
      description: "Number of projects with a strategy using the segment.",
      select: { strategies: { select: { strategy: { select: { projectId: true } } } } },
      resolve: (s) => new Set(s.strategies.map((x) => x.strategy.projectId)).size,
    }),
  }),
});

const SegmentInputType = builder.inputType("SegmentInput", {
  description: "A segment's content.",
  fields: (t) => ({
    name: t.string({ required: true, description: "Unique name." }),
    description: t.string({ description: "Free text." }),
    project: t.string({ description: "Project id for a project segment; leave out for a global one." }),
    constraints: t.field({ type: [ConstraintInput], description: "The constraints (default none)." }),
  }),
});

builder.queryFields((t) => ({
  segments: t.prismaField({
    type: ["Segment"],
    description: "Segments by id; with `project`, the global ones and those of that project.",
    authScopes: { authenticated: true },
    args: { project: t.arg.string({ description: "Only segments usable in this project." }) },
    resolve: (query, _root, args, ctx) =>
      ctx.db.segment.findMany({
        ...query,
        where: args.project ? { OR: [{ projectId: null }, { projectId: args.project }] } : {},
        orderBy: { id: "asc" },
      }),
  }),
  segment: t.prismaField({
    type: "Segment",
    nullable: true,
    description: "One segment, or null when there is none.",
    authScopes: { authenticated: true },
    args: { id: t.arg.int({ required: true, description: "Segment id." }) },
    resolve: (query, _root, args, ctx) => ctx.db.segment.findUnique({ ...query, where: { id: args.id } }),
  }),
}));

builder.mutationFields((t) => ({
  createSegment: t.prismaField({
    type: "Segment",
    description: "Creates a segment. Event: segment-created.",
    args: { input: t.arg({ type: SegmentInputType, required: true, description: "The segment." }) },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.CREATE_SEGMENT, project: args.input.project },
    }),
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        const created = await createSegment(w, args.input as SegmentInput, ctx.config.limits);
        return w.tx.segment.findUniqueOrThrow({ ...query, where: { id: created.id } });
      });
    },
  }),
  updateSegment: t.prismaField({
    type: "Segment",
    description:
      "Replaces a segment's content. Event: segment-updated (none when unchanged). FORBIDDEN without SKIP_CHANGE_REQUEST where a strategy using it is in an environment requiring change requests: propose an `updateSegment` change there instead.",
    args: {
      id: t.arg.int({ required: true, description: "Segment id." }),
      input: t.arg({ type: SegmentInputType, required: true, description: "The new content." }),
    },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.UPDATE_SEGMENT, project: args.input.project },
    }),
    resolve: async (query, _root, args, ctx) => {
      return runWrite(ctx, async (w) => {
        await updateSegment(w, args.id, args.input as SegmentInput, ctx.config.limits, ctx.principal);
        return w.tx.segment.findUniqueOrThrow({ ...query, where: { id: args.id } });
      });
    },
  }),
  deleteSegment: t.int({
    description:
      "Deletes a segment no strategy uses (CONFLICT while strategies use it) and returns its id. Event: segment-deleted.",
    args: { id: t.arg.int({ required: true, description: "Segment id." }) },
    authScopes: { permission: { permission: PERMISSIONS.DELETE_SEGMENT } },
    resolve: async (_root, args, ctx) => {
      const deleted = await runWrite(ctx, (w) => deleteSegment(w, args.id));
      return deleted.id;
    },
  }),
}));
