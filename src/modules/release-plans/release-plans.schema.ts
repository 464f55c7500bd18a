import { builder } from "../../builder.ts";
import type { Context } from "../../context.ts";
import { AuthenticationRequired, ForbiddenOperation, NotFoundError } from "../../shared/errors.ts";
import { runWrite, type Write } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { RELEASE_PLAN_ACTIONS } from "../change-requests/change-request.inputs.ts";
import { ChangeRequestRef } from "../change-requests/change-request.schema.ts";
import { openChangeRequestIdsWith } from "../change-requests/open-change-requests.read.ts";
import { changeRequestViews } from "../change-requests/view.read.ts";
import { eventVisibility } from "../events/visibility.logic.ts";
import { StrategyInput } from "../feature-environments/strategy-inputs.schema.ts";
import { requireDirectChange, scope, target, targetArgs } from "../feature-environments/target.schema.ts";
import { followEvents, withCurrentFirst } from "../live/follow.live.ts";
import { ReleasePlanRef, ReleaseTemplateRef } from "./release-plan.schema.ts";
import type { ReleasePlan } from "./release-plan.types.ts";
import { planOfFlag, templates } from "./release-plans.read.ts";
import { applyTemplate, removePlan, startMilestoneById } from "./release-plans.write.ts";
import {
  archiveTemplate,
  createTemplate,
  deleteTemplate,
  updateTemplate,
} from "./release-templates.write.ts";
import { pausePlan, resumePlan, setSafeguards } from "./safeguards.write.ts";

const MilestoneInput = builder.inputType("ReleaseMilestoneInput", {
  description: "A milestone of a template.",
  fields: (t) => ({
    name: t.string({ required: true, description: "Its name (1 to 100 characters)." }),
    strategies: t.field({
      type: [StrategyInput],
      required: true,
      description: "The strategies it gives the environment (at least one).",
    }),
    afterSeconds: t.int({
      description: "Start the next milestone this many seconds after this one (> 0); none: by hand.",
    }),
  }),
});

const TemplateInput = builder.inputType("ReleaseTemplateInput", {
  description: "A release template.",
  fields: (t) => ({
    name: t.string({ required: true, description: "Unique name." }),
    description: t.string({ description: "What it is for." }),
    milestones: t.field({
      type: [MilestoneInput],
      required: true,
      description: "Milestones in order (at least one).",
    }),
  }),
});

const SafeguardInput = builder.inputType("SafeguardInput", {
  description: "A safeguard: an impact metric of the plan's environment against a threshold over a window.",
  fields: (t) => ({
    metricName: t.string({ required: true, description: "An impact metric SDKs report in the environment." }),
    aggregationMode: t.string({
      required: true,
      description: "count, sum, avg, rps (per second of the window), or p50/p95/p99 (histograms).",
    }),
    labelSelectors: t.field({
      type: "JSON",
      description: 'Which series count: `{"label": ["value", ...]}`.',
    }),
    operator: t.string({ required: true, description: "`>` or `<`." }),
    threshold: t.float({ required: true, description: "The threshold." }),
    windowSeconds: t.int({ required: true, description: "How far back it reads, in seconds (1 to 86400)." }),
    action: t.string({
      description: "`rollback` (default): previous milestone, or off; `disable`: flag off.",
    }),
    baseline: t.string({
      description:
        "`none` (default): the reading itself against the threshold; `previousMilestone`: its rise over the same window just before the running milestone started; `flagOff`: how far the samples of users who get the flag (labelled with it, not `disabled`, as unleash-client's `flagNames` labels them) are above those of users who do not, over the same window (a histogram's avg or percentile, or a gauge's avg).",
    }),
  }),
});

/** The plan of the flag in the environment, in the project the arguments name, or 404. */
async function planAt(w: Write, args: { project: string; feature: string; environment: string }) {
  const plan = await planOfFlag(w.tx, args.feature, args.environment);
  if (!plan || plan.projectId !== args.project) {
    throw new NotFoundError(`${args.feature} has no release plan in the "${args.environment}" environment.`);
  }
  return plan;
}

const planScope = scope(PERMISSIONS.UPDATE_FEATURE_STRATEGY);

builder.queryFields((t) => ({
  releaseTemplates: t.field({
    type: [ReleaseTemplateRef],
    description: "Release templates by name.",
    authScopes: { authenticated: true },
    args: { includeArchived: t.arg.boolean({ description: "Archived ones too." }) },
    resolve: (_root, args, ctx) => templates(ctx.db, args.includeArchived ?? false),
  }),
  releasePlanChangeRequests: t.field({
    type: [ChangeRequestRef],
    description:
      "The open change requests (Draft to Scheduled) that add, remove or move on the release plan of a flag in an environment (`addReleasePlan`, `deleteReleasePlan`, `startMilestone`), oldest first.",
    authScopes: { authenticated: true },
    args: targetArgs,
    resolve: async (_root, args, ctx) => {
      const ids = await openChangeRequestIdsWith(ctx.db, { ...args, actions: RELEASE_PLAN_ACTIONS });
      return changeRequestViews(ctx.db, ids, ctx.changeKinds);
    },
  }),
  releasePlan: t.field({
    type: ReleasePlanRef,
    nullable: true,
    description: "The release plan of a flag in an environment, or null.",
    authScopes: { authenticated: true },
    args: targetArgs,
    resolve: async (_root, args, ctx) => {
      const plan = await planOfFlag(ctx.db, args.feature, args.environment);
      return plan?.projectId === args.project ? plan : null;
    },
  }),
}));

builder.mutationFields((t) => {
  /**
   * A mutation on the plan of a flag in an environment: UPDATE_FEATURE_STRATEGY there; `direct`:
   * a change that needs SKIP_CHANGE_REQUEST where change requests are required (D-26).
   */
  const onPlan = (
    description: string,
    work: (ctx: Context, w: Write, plan: ReleasePlan) => Promise<ReleasePlan>,
    direct = false,
  ) =>
    t.field({
      type: ReleasePlanRef,
      description,
      args: targetArgs,
      authScopes: planScope,
      resolve: async (_root, args, ctx) => {
        if (direct) await requireDirectChange(ctx, args);
        return runWrite(ctx, async (w) => work(ctx, w, await planAt(w, args)));
      },
    });
  return {
    createReleaseTemplate: t.field({
      type: ReleaseTemplateRef,
      description: "Creates a release template (release-plan-template-created). 409 when the name is taken.",
      args: { input: t.arg({ type: TemplateInput, required: true, description: "The template." }) },
      authScopes: { permission: { permission: PERMISSIONS.CREATE_STRATEGY } },
      resolve: (_root, args, ctx) => runWrite(ctx, (w) => createTemplate(w, args.input)),
    }),
    updateReleaseTemplate: t.field({
      type: ReleaseTemplateRef,
      description:
        "Replaces a template's name, description and milestones (release-plan-template-updated; a milestone keeps the id of the one at its position). Plans made from it keep their milestones. NOT_FOUND, VALIDATION, NAME_EXISTS, INVALID_OPERATION (archived).",
      args: {
        id: t.arg.string({ required: true, description: "Template id." }),
        input: t.arg({ type: TemplateInput, required: true, description: "The template as it should be." }),
      },
      authScopes: { permission: { permission: PERMISSIONS.UPDATE_STRATEGY } },
      resolve: (_root, args, ctx) => runWrite(ctx, (w) => updateTemplate(w, args.id, args.input)),
    }),
    deleteReleaseTemplate: t.field({
      type: ReleaseTemplateRef,
      description:
        "Deletes a template no plan was made from (release-plan-template-deleted); answers it as it was. CONFLICT naming the plans when one uses it (archive it instead); a pending `addReleasePlan` of it then conflicts.",
      args: { id: t.arg.string({ required: true, description: "Template id." }) },
      authScopes: { permission: { permission: PERMISSIONS.DELETE_STRATEGY } },
      resolve: (_root, args, ctx) => runWrite(ctx, (w) => deleteTemplate(w, args.id)),
    }),
    archiveReleaseTemplate: t.field({
      type: ReleaseTemplateRef,
      description: "Archives a template (release-plan-template-archived): plans made from it keep running.",
      args: { id: t.arg.string({ required: true, description: "Template id." }) },
      authScopes: { permission: { permission: PERMISSIONS.DELETE_STRATEGY } },
      resolve: (_root, args, ctx) => runWrite(ctx, (w) => archiveTemplate(w, args.id)),
    }),
    applyReleaseTemplate: t.field({
      type: ReleasePlanRef,
      description:
        "Applies a template to a flag in an environment (release-plan-added), with safeguards; `start` starts the first milestone (release-plan-milestone-started). Every milestone is checked against the flag first. Where the environment requires change requests it needs SKIP_CHANGE_REQUEST (FORBIDDEN): propose an `addReleasePlan` change instead. Refused on an archived flag (ARCHIVED), when the flag has a plan there (CONFLICT).",
      args: {
        ...targetArgs,
        template: t.arg.string({ required: true, description: "Template id." }),
        safeguards: t.arg({ type: [SafeguardInput], description: "Safeguards of the plan." }),
        start: t.arg.boolean({ description: "Start the first milestone now." }),
      },
      authScopes: planScope,
      resolve: async (_root, args, ctx) => {
        await requireDirectChange(ctx, args);
        return runWrite(ctx, (w) =>
          applyTemplate(w, target(args), args.template, {
            safeguards: args.safeguards ?? [],
            start: args.start ?? false,
            limits: ctx.config.limits,
          }),
        );
      },
    }),
    removeReleasePlan: onPlan(
      "Removes the plan (release-plan-removed); the strategies stay as they are. Where change requests are required: SKIP_CHANGE_REQUEST, or propose `deleteReleasePlan`.",
      (_ctx, w, p) => removePlan(w, p.id),
      true,
    ),
    startReleaseMilestone: t.field({
      type: ReleasePlanRef,
      description:
        "Starts a milestone by hand (release-plan-milestone-started): the environment's strategies become its own; a paused plan runs again. Where change requests are required: SKIP_CHANGE_REQUEST, or propose `startMilestone` (approved ahead, applied or scheduled).",
      args: { ...targetArgs, milestone: t.arg.string({ required: true, description: "Milestone id." }) },
      authScopes: planScope,
      resolve: async (_root, args, ctx) => {
        await requireDirectChange(ctx, args);
        return runWrite(ctx, async (w) =>
          startMilestoneById(w, (await planAt(w, args)).id, args.milestone, ctx.config.limits),
        );
      },
    }),
    pauseReleasePlan: onPlan(
      "Pauses the plan (release-plan-progressions-paused). It changes no strategy: allowed where change requests are required.",
      (_ctx, w, p) => pausePlan(w, p.id),
    ),
    resumeReleasePlan: onPlan(
      "Resumes a paused plan (release-plan-progressions-resumed): the running milestone's time and safeguard windows count from now. It changes no strategy: allowed where change requests are required (where a due milestone is proposed, not started).",
      (_ctx, w, p) => resumePlan(w, p.id),
    ),
    setReleasePlanSafeguards: t.field({
      type: ReleasePlanRef,
      description:
        "Replaces the plan's safeguards (safeguard-changed). A safeguard acts without review when it trips, so where change requests are required this needs SKIP_CHANGE_REQUEST (FORBIDDEN); there, safeguards come with the plan (`addReleasePlan`'s `safeguards`).",
      args: {
        ...targetArgs,
        safeguards: t.arg({ type: [SafeguardInput], required: true, description: "Safeguards." }),
      },
      authScopes: planScope,
      resolve: async (_root, args, ctx) => {
        await requireDirectChange(ctx, args);
        return runWrite(ctx, async (w) => setSafeguards(w, (await planAt(w, args)).id, args.safeguards));
      },
    }),
  };
});

builder.subscriptionField("releasePlan", (t) =>
  t.field({
    type: ReleasePlanRef,
    nullable: true,
    description:
      "The release plan of a flag in an environment as it is now (null: none), then again after each committed event about the flag there: milestones starting, pauses, safeguards tripping.",
    authScopes: { authenticated: true },
    args: targetArgs,
    subscribe: (_root, args, ctx) => {
      if (!ctx.principal) throw new AuthenticationRequired();
      if (!eventVisibility(ctx.principal).accept({ project: args.project })) {
        throw new ForbiddenOperation(`This credential cannot read project "${args.project}".`);
      }
      const about = { featureName: args.feature, project: args.project, environment: args.environment };
      return withCurrentFirst(
        followEvents(ctx.db, ctx.services.feed, {
          where: about,
          accept: (e) =>
            e.featureName === args.feature &&
            e.project === args.project &&
            e.environment === args.environment,
        }),
      );
    },
    resolve: async (_event, args, ctx) => {
      const plan = await planOfFlag(ctx.db, args.feature, args.environment);
      return plan?.projectId === args.project ? plan : null;
    },
  }),
);
