import { queryFromInfo } from "@pothos/plugin-prisma";
import { builder, countedConnection } from "../../builder.ts";
import { NameExistsError, NotFoundError, ValidationError } from "../../shared/errors.ts";
import { pageRequest, prismaPage, toConnection } from "../../shared/pagination.ts";
import { sqlOf } from "../../shared/sql.ts";
import { parseInput } from "../../shared/validation.ts";
import { SDK_CONTEXT_FIELDS } from "../evaluation/context-value.logic.ts";
import { normalizeConstraint } from "../feature-environments/constraints.logic.ts";
import { checkLegalValues } from "../feature-environments/legal-values.read.ts";
import { ConstraintInput } from "../feature-environments/strategy-inputs.schema.ts";
import { createFeatureSchema } from "./feature.inputs.ts";
import { featureInProject } from "./feature.read.ts";
import { FeatureRef } from "./feature.schema.ts";

const FeatureConnection = countedConnection(
  "FeatureConnection",
  FeatureRef,
  "Number of flags matching, across all pages.",
);

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

builder.queryField("projectFeature", (t) =>
  t.prismaField({
    type: "Feature",
    description: "A flag of a project (archived ones too); NOT_FOUND when unknown or in another project.",
    authScopes: { authenticated: true },
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      name: t.arg.string({ required: true, description: "Flag name." }),
      includeArchived: t.arg.boolean({
        defaultValue: true,
        description: "false: an archived flag is NOT_FOUND, as Unleash's REST read answers.",
      }),
    },
    resolve: async (query, _root, args, ctx) => {
      const feature = await featureInProject(ctx.db, args.project, args.name, true);
      if (feature.archivedAt && !args.includeArchived) {
        throw new NotFoundError(`Could not find feature flag "${args.name}" (it is archived)`);
      }
      return ctx.db.feature.findUniqueOrThrow({ ...query, where: { name: args.name } });
    },
  }),
);

builder.queryField("projectFeatures", (t) =>
  t.prismaField({
    type: ["Feature"],
    description: "Every active flag of a project, oldest first; NOT_FOUND for an unknown project.",
    authScopes: { authenticated: true },
    args: { project: t.arg.string({ required: true, description: "Project id." }) },
    resolve: async (query, _root, args, ctx) => {
      if (!(await ctx.db.project.findUnique({ where: { id: args.project }, select: { id: true } }))) {
        throw new NotFoundError(`Could not find project with id "${args.project}"`);
      }
      return ctx.db.feature.findMany({
        ...query,
        where: { projectId: args.project, archivedAt: null },
        orderBy: [{ createdAt: "asc" }, { name: "asc" }],
      });
    },
  }),
);

type LifecycleCounts = {
  initial: number;
  preLive: number;
  live: number;
  completed: number;
  archived: number;
};

const LifecycleCountsRef = builder.objectRef<LifecycleCounts>("LifecycleStageCounts").implement({
  description:
    "How many flags are in each lifecycle stage now (each flag counted once, in its current stage).",
  fields: (t) => ({
    initial: t.exposeInt("initial", { description: "Flags in stage initial." }),
    preLive: t.exposeInt("preLive", { description: "Flags in stage pre-live." }),
    live: t.exposeInt("live", { description: "Flags in stage live." }),
    completed: t.exposeInt("completed", { description: "Flags in stage completed." }),
    archived: t.exposeInt("archived", { description: "Archived flags." }),
  }),
});

builder.queryFields((t) => ({
  validateFeatureName: t.boolean({
    description:
      "Checks a name for a new flag: true when it is URL-friendly and no flag (archived ones included) holds it. VALIDATION for a malformed name, NAME_EXISTS for a taken one.",
    authScopes: { authenticated: true },
    args: { name: t.arg.string({ required: true, description: "The name to check." }) },
    resolve: async (_root, args, ctx) => {
      parseInput(createFeatureSchema.pick({ name: true }), { name: args.name });
      const taken = await ctx.db.feature.findUnique({
        where: { name: args.name },
        select: { projectId: true },
      });
      if (taken) throw new NameExistsError(`A flag with the name "${args.name}" already exists.`);
      return true;
    },
  }),
  validateConstraint: t.boolean({
    description:
      "Checks a constraint as a strategy would store it: the context field exists (a stored field or one SDKs carry), the operator's values are well formed and within the field's legal values. VALIDATION otherwise.",
    authScopes: { authenticated: true },
    args: {
      constraint: t.arg({ type: ConstraintInput, required: true, description: "The constraint." }),
      project: t.arg.string({
        description:
          "For a strategy of this project: its project-scoped fields count too (else root fields only).",
      }),
    },
    resolve: async (_root, args, ctx) => {
      const constraint = normalizeConstraint(args.constraint as never, "constraint");
      const project = args.project ?? null;
      const stored = await ctx.db.contextField.findUnique({ where: { name: constraint.contextName } });
      const visible = stored && (stored.projectId === null || stored.projectId === project);
      if (!visible && !SDK_CONTEXT_FIELDS.has(constraint.contextName)) {
        throw new ValidationError(`contextName: context field "${constraint.contextName}" does not exist`, [
          { path: "contextName", message: `context field "${constraint.contextName}" does not exist` },
        ]);
      }
      await checkLegalValues(ctx.db, [constraint], "constraint", project);
      return true;
    },
  }),
  featureLifecycleCounts: t.field({
    type: LifecycleCountsRef,
    description:
      "How many flags are in each lifecycle stage: archived flags as archived, the others in their current stage (the one shown on the flag: completed > live > pre-live > initial).",
    authScopes: { authenticated: true },
    resolve: async (_root, _args, ctx) => {
      const rows = await sqlOf(ctx.db).query<{ stage: string | null; count: number }>`
        SELECT CASE WHEN f."archivedAt" IS NOT NULL THEN 'archived' ELSE (
                 SELECT l.stage FROM "FeatureLifecycle" l
                  WHERE l."featureName" = f.name AND l.stage <> 'archived'
                  ORDER BY array_position(ARRAY['initial', 'pre-live', 'live', 'completed'], l.stage) DESC NULLS LAST
                  LIMIT 1) END AS stage,
               count(*)::int AS count
          FROM "Feature" f GROUP BY 1`;
      const count = (stage: string) => rows.find((r) => r.stage === stage)?.count ?? 0;
      return {
        initial: count("initial"),
        preLive: count("pre-live"),
        live: count("live"),
        completed: count("completed"),
        archived: count("archived"),
      };
    },
  }),
}));
