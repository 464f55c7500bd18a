import { builder } from "../../builder.ts";
import { NameExistsError, ValidationError } from "../../shared/errors.ts";
import { parseInput } from "../../shared/validation.ts";
import { SDK_CONTEXT_FIELDS } from "../evaluation/context-value.logic.ts";
import { checkLegalValues, normalizeConstraint } from "../feature-environments/constraints.logic.ts";
import { ConstraintInput } from "../feature-environments/strategy-inputs.schema.ts";
import { createFeatureSchema } from "./feature-create.write.ts";

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
      const rows = await ctx.db.$queryRaw<{ stage: string | null; count: number }[]>`
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
