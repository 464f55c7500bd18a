import { builder } from "../../builder.ts";
import type { Tx } from "../../db/database.ts";
import type { ChangeKinds } from "../../shared/change-kinds.ts";
import { integerKey, NODE_ID } from "../../shared/node-ids.ts";
import { imageOf } from "../users/avatars.logic.ts";
import type { ChangeRequestConfig } from "./settings.read.ts";
import {
  type ChangeItem,
  type ChangeRequestView,
  type CrUser,
  changeRequestViews,
  type FeatureGroup,
} from "./view.read.ts";

export const ChangeRequestUserRef = builder.objectRef<CrUser>("ChangeRequestUser").implement({
  description: "A user as a change request shows them.",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "User id (-42: an admin API token)." }),
    username: t.exposeString("username", { nullable: true, description: "User name or email." }),
    imageUrl: t.string({
      description: "Avatar address: the user's image, else one Vexil generates for them.",
      resolve: (u, _args, ctx) => imageOf(ctx.config.publicUrl, u),
    }),
  }),
});

export const ChangeItemRef = builder
  .objectRef<ChangeItem & { name?: string }>("ChangeRequestChange")
  .implement({
    description: "One proposed change (to a flag, or to a segment).",
    fields: (t) => ({
      id: t.exposeInt("id", { description: "Change id." }),
      action: t.exposeString("action", {
        description:
          "One of the 11 actions of spec 4.5, or a release plan's: addReleasePlan, deleteReleasePlan, startMilestone.",
      }),
      conflict: t.exposeString("conflict", {
        nullable: true,
        description: "Why this change can no longer be applied as it was made; null when it can.",
      }),
      payload: t.expose("payload", { type: "JSON", nullable: true, description: "The change's data." }),
      createdBy: t.expose("createdBy", {
        type: ChangeRequestUserRef,
        description: "Who proposed the change.",
      }),
      createdAt: t.expose("createdAt", { type: "DateTime", description: "When the change was proposed." }),
      name: t.string({
        nullable: true,
        description: "Segment changes: the segment's current name; null for flag changes.",
        resolve: (c) => c.name ?? null,
      }),
    }),
  });

const DefaultChangeRef = builder
  .objectRef<{ action: string; payload: unknown }>("ChangeRequestDefaultChange")
  .implement({
    description: "A change applied in the background to avoid an invalid state; not part of the request.",
    fields: (t) => ({
      action: t.exposeString("action", { description: "Always addStrategy." }),
      payload: t.expose("payload", { type: "JSON", description: "The strategy that will be added." }),
    }),
  });

export const FeatureGroupRef = builder.objectRef<FeatureGroup>("ChangeRequestFeature").implement({
  description: "The changes of a change request to one flag.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Flag name." }),
    conflict: t.exposeString("conflict", {
      nullable: true,
      description: "First conflict among its changes.",
    }),
    changes: t.expose("changes", { type: [ChangeItemRef], description: "Changes, oldest first." }),
    defaultChange: t.expose("defaultChange", {
      type: DefaultChangeRef,
      nullable: true,
      description: "Set when enabling a flag that has no strategy: the strategy added with it.",
    }),
  }),
});

const ReviewRef = builder.objectRef<{ createdBy: CrUser; createdAt: Date }>("ChangeRequestReview").implement({
  description: "An approval or rejection.",
  fields: (t) => ({
    createdBy: t.expose("createdBy", { type: ChangeRequestUserRef, description: "The reviewer." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When." }),
  }),
});

const CommentRef = builder
  .objectRef<ChangeRequestView["comments"][number]>("ChangeRequestComment")
  .implement({
    description: "A comment on a change request.",
    fields: (t) => ({
      id: t.exposeInt("id", { description: "Comment id." }),
      text: t.exposeString("text", { description: "The comment." }),
      createdBy: t.expose("createdBy", { type: ChangeRequestUserRef, description: "Its author." }),
      createdAt: t.expose("createdAt", { type: "DateTime", description: "When." }),
    }),
  });

const ScheduleRef = builder
  .objectRef<NonNullable<ChangeRequestView["schedule"]>>("ChangeRequestSchedule")
  .implement({
    description: "When a Scheduled change request is applied (spec 2.11, 3.2).",
    fields: (t) => ({
      status: t.exposeString("status", { description: "pending, failed or suspended." }),
      scheduledAt: t.expose("scheduledAt", {
        type: "DateTime",
        description:
          "pending: when it will be applied; failed: last attempt; suspended: when it would have been.",
      }),
      reason: t.exposeString("reason", { nullable: true, description: "Why it failed or was suspended." }),
      failureReason: t.string({
        nullable: true,
        deprecationReason: "Use reason.",
        description: "Why it failed (null unless failed).",
        resolve: (s) => s.failureReason ?? (s.status === "failed" ? s.reason : null),
      }),
    }),
  });

export const ChangeRequestRef = builder.node(builder.objectRef<ChangeRequestView>("ChangeRequest"), {
  description: "Changes to one environment of a project, proposed for review (spec 2.11).",
  id: { ...NODE_ID, resolve: (cr) => cr.id },
  // as `changeRequest(id:)`: any credential of the admin API
  loadMany: (ids, ctx) => changeRequestsInOrder(ctx.db, ids.map(integerKey), ctx.changeKinds),
  fields: (t) => ({
    databaseId: t.exposeInt("id", { description: "Change request id (REST API and arguments)." }),
    title: t.exposeString("title", { description: "Title." }),
    project: t.exposeString("project", { description: "Project id." }),
    environment: t.exposeString("environment", { description: "Environment the changes apply to." }),
    minApprovals: t.exposeInt("minApprovals", {
      description: "Approvals needed, fixed when it was created.",
    }),
    state: t.exposeString("state", {
      description: "Draft, In review, Approved, Scheduled, Applied, Cancelled or Rejected.",
    }),
    createdBy: t.expose("createdBy", { type: ChangeRequestUserRef, description: "Its author." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was created." }),
    features: t.expose("features", {
      type: [FeatureGroupRef],
      description: "Flag changes, grouped by flag.",
    }),
    segments: t.expose("segments", { type: [ChangeItemRef], description: "Segment changes." }),
    approvals: t.expose("approvals", { type: [ReviewRef], description: "Approvals so far." }),
    rejections: t.expose("rejections", { type: [ReviewRef], description: "Rejections." }),
    comments: t.expose("comments", { type: [CommentRef], description: "Comments, oldest first." }),
    schedule: t.expose("schedule", {
      type: ScheduleRef,
      nullable: true,
      description: "Present when the state is Scheduled.",
    }),
  }),
});

export const ChangeRequestConfigRef = builder
  .objectRef<ChangeRequestConfig>("ChangeRequestConfig")
  .implement({
    description: "Whether an environment of a project requires change requests.",
    fields: (t) => ({
      environment: t.exposeString("environment", { description: "Environment name." }),
      type: t.exposeString("type", { description: "Environment type." }),
      changeRequestEnabled: t.exposeBoolean("changeRequestEnabled", {
        description: "Direct changes are refused; changes go through change requests.",
      }),
      requiredApprovals: t.exposeInt("requiredApprovals", {
        nullable: true,
        description: "Approvals a new change request needs (0 to 10); null when off.",
      }),
    }),
  });

/** The views of `ids`, in their order, null for each that does not exist (node loading). */
async function changeRequestsInOrder(
  db: Tx,
  ids: number[],
  kinds: ChangeKinds,
): Promise<(ChangeRequestView | null)[]> {
  const byId = new Map((await changeRequestViews(db, ids, kinds)).map((view) => [view.id, view]));
  return ids.map((id) => byId.get(id) ?? null);
}
