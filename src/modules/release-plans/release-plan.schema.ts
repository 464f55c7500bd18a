import { builder } from "../../builder.ts";
import { NODE_ID } from "../../shared/node-ids.ts";
import { ChangeRequestRef } from "../change-requests/change-request.schema.ts";
import { changeRequestView } from "../change-requests/view.read.ts";
import type { Milestone, ReleasePlan, ReleaseTemplate, Safeguard } from "./release-plan.types.ts";
import { activeMilestone, nextMilestoneAt } from "./release-plans.logic.ts";
import { plansById, templatesById } from "./release-plans.read.ts";

type MilestoneStrategy = Milestone["strategies"][number];

const MilestoneStrategyRef = builder.objectRef<MilestoneStrategy>("ReleaseMilestoneStrategy").implement({
  description: "A strategy a milestone gives the flag's environment when it starts.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Strategy type, e.g. `flexibleRollout`." }),
    title: t.exposeString("title", { nullable: true, description: "Its title." }),
    disabled: t.exposeBoolean("disabled", { description: "Whether it is disabled." }),
    parameters: t.field({ type: "JSON", description: "Its parameters.", resolve: (s) => s.parameters }),
    constraints: t.field({ type: "JSON", description: "Its constraints.", resolve: (s) => s.constraints }),
    variants: t.field({ type: "JSON", description: "Its variants.", resolve: (s) => s.variants }),
    segments: t.exposeIntList("segments", { description: "Ids of its segments." }),
  }),
});

export const MilestoneRef = builder.objectRef<Milestone>("ReleaseMilestone").implement({
  description: "One step of a release: strategies, and when it hands over to the next.",
  fields: (t) => ({
    databaseId: t.exposeString("id", { description: "Milestone id (`startReleaseMilestone`)." }),
    name: t.exposeString("name", { description: "Its name, e.g. `25 %`." }),
    afterSeconds: t.exposeInt("afterSeconds", {
      nullable: true,
      description: "Seconds after which the next milestone starts by itself; null: by hand.",
    }),
    strategies: t.field({
      type: [MilestoneStrategyRef],
      description: "Its strategies.",
      resolve: (m) => m.strategies,
    }),
  }),
});

export const SafeguardRef = builder.objectRef<Safeguard>("Safeguard").implement({
  description:
    "A watch on an impact metric of the plan's environment; when it trips, the plan rolls back and pauses.",
  fields: (t) => ({
    databaseId: t.exposeString("id", { description: "Safeguard id." }),
    metricName: t.exposeString("metricName", { description: "The impact metric watched." }),
    aggregationMode: t.exposeString("aggregationMode", {
      description: "How the window is read: count, sum, avg, rps, p50, p95 or p99.",
    }),
    labelSelectors: t.field({
      type: "JSON",
      description: "Which series count: `{label: [values]}`.",
      resolve: (s) => s.labelSelectors,
    }),
    operator: t.exposeString("operator", { description: "`>` or `<` the threshold trips it." }),
    threshold: t.exposeFloat("threshold", { description: "The threshold." }),
    windowSeconds: t.exposeInt("windowSeconds", {
      description:
        "How far back it reads (whole minutes: those the window overlaps, since the milestone started).",
    }),
    action: t.exposeString("action", {
      description:
        "`rollback`: back to the previous milestone (off when there is none); `disable`: flag off.",
    }),
    baseline: t.string({
      description:
        "`none`: the reading against the threshold; `previousMilestone`: the reading's rise over the same window just before the running milestone started; `flagOff`: how far the users who get the flag (samples labelled with it, not `disabled`) are above those who do not (`disabled`).",
      resolve: (s) => s.baseline ?? "none",
    }),
  }),
});

export const ReleaseTemplateRef = builder.node(builder.objectRef<ReleaseTemplate>("ReleaseTemplate"), {
  description: "An ordered list of milestones to apply to flags (release-plan-template-created).",
  id: { ...NODE_ID, resolve: (r) => r.id },
  loadMany: (ids, ctx) => templatesById(ctx.db, ids),
  fields: (t) => ({
    databaseId: t.exposeString("id", { description: "Template id (`applyReleaseTemplate`)." }),
    name: t.exposeString("name", { description: "Unique name." }),
    description: t.exposeString("description", { nullable: true, description: "What it is for." }),
    milestones: t.field({
      type: [MilestoneRef],
      description: "Milestones, in order.",
      resolve: (r) => r.milestones,
    }),
    createdAt: t.field({
      type: "DateTime",
      description: "When it was created.",
      resolve: (r) => r.createdAt,
    }),
    archivedAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When it was archived (no new plans from it).",
      resolve: (r) => r.archivedAt,
    }),
  }),
});

const PlanStateEnum = builder.enumType("ReleasePlanState", {
  description: "Whether a plan moves on and is watched.",
  values: {
    ACTIVE: { value: "active", description: "Moves on when a milestone's time is up; safeguards watch." },
    PAUSED: { value: "paused", description: "Neither, until resumed (or a milestone is started by hand)." },
  } as const,
});

export const ReleasePlanRef = builder.node(builder.objectRef<ReleasePlan>("ReleasePlan"), {
  description: "A template applied to a flag in one environment: its milestones, progress and safeguards.",
  id: { ...NODE_ID, resolve: (p) => p.id },
  loadMany: (ids, ctx) => plansById(ctx.db, ids),
  fields: (t) => ({
    databaseId: t.exposeString("id", { description: "Plan id." }),
    templateId: t.exposeString("templateId", { description: "The template it was made from." }),
    name: t.exposeString("name", { description: "The template's name when applied." }),
    featureName: t.exposeString("featureName", { description: "The flag." }),
    project: t.exposeString("projectId", { description: "The flag's project." }),
    environment: t.exposeString("environment", { description: "The environment." }),
    milestones: t.field({
      type: [MilestoneRef],
      description: "Milestones, in order.",
      resolve: (p) => p.milestones,
    }),
    activeMilestone: t.field({
      type: MilestoneRef,
      nullable: true,
      description: "The running milestone (null before the first starts).",
      resolve: (p) => activeMilestone(p),
    }),
    milestoneStartedAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When the running milestone started (or the plan resumed).",
      resolve: (p) => p.milestoneStartedAt,
    }),
    nextMilestoneAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When the next milestone starts by itself (null: by hand, paused, or the last).",
      resolve: (p) => nextMilestoneAt(p),
    }),
    state: t.field({ type: PlanStateEnum, description: "Active or paused.", resolve: (p) => p.state }),
    pausedAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When it paused.",
      resolve: (p) => p.pausedAt,
    }),
    pauseReason: t.field({
      type: "JSON",
      nullable: true,
      description:
        "Why it paused by itself: the safeguard that tripped and its numbers (as safeguard-triggered).",
      resolve: (p) => p.pauseReason ?? null,
    }),
    safeguards: t.field({
      type: [SafeguardRef],
      description: "Its safeguards.",
      resolve: (p) => p.safeguards,
    }),
    stepChangeRequest: t.field({
      type: ChangeRequestRef,
      nullable: true,
      description:
        "Where the environment requires change requests: the request the plan opened to start its next milestone when that was due (it waits for it to be approved and applied; once turned down, for a person to move it on). Null once a milestone starts.",
      resolve: (p, _args, ctx) =>
        p.stepChangeRequestId === null
          ? null
          : changeRequestView(ctx.db, p.stepChangeRequestId, ctx.changeKinds),
    }),
    version: t.exposeInt("version", { description: "Counts its changes; events carry it." }),
    createdAt: t.field({
      type: "DateTime",
      description: "When it was applied.",
      resolve: (p) => p.createdAt,
    }),
  }),
});
