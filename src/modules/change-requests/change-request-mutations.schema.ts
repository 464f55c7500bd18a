import { builder } from "../../builder.ts";
import { runWrite } from "../../shared/write.ts";
import { ChangeRequestRef } from "./change-request.schema.ts";
import { discardChange, discardDraft, editChange, setTitle } from "./drafts.write.ts";
import { principalOf, runStateChange, viewAfter } from "./resolve.schema.ts";
import { commentOn } from "./transitions.write.ts";

/** Mutations on one existing change request: its changes, comments and state (reference §6.2–6.3). */
const target = {
  project: { type: "String", required: true, description: "Project id." },
  id: { type: "Int", required: true, description: "Change request id." },
} as const;

function stateMutation(
  name: string,
  state: "In review" | "Approved" | "Rejected" | "Cancelled" | "Applied",
  description: string,
) {
  builder.mutationField(name, (t) =>
    t.field({
      type: ChangeRequestRef,
      description,
      args: {
        project: t.arg({ ...target.project }),
        id: t.arg({ ...target.id }),
        comment: t.arg.string({ description: "Optional comment stored with the transition." }),
      },
      authScopes: { authenticated: true },
      resolve: (_root, args, ctx) =>
        runStateChange(ctx, args.project, args.id, { state, comment: args.comment }),
    }),
  );
}

stateMutation(
  "sendChangeRequestToReview",
  "In review",
  "Draft → In review, by the author. Event: change-request-sent-to-review.",
);
stateMutation(
  "approveChangeRequest",
  "Approved",
  "Adds the caller's approval (APPROVE_CHANGE_REQUEST; not the author unless Admin). Events: change-request-approval-added, change-request-approved when enough.",
);
stateMutation(
  "rejectChangeRequest",
  "Rejected",
  "Rejects (APPROVE_CHANGE_REQUEST). Event: change-request-rejected.",
);
stateMutation(
  "cancelChangeRequest",
  "Cancelled",
  "Cancels, by the author or an Admin. Event: change-request-cancelled.",
);
stateMutation(
  "applyChangeRequest",
  "Applied",
  "Applies every change in one transaction (APPLY_CHANGE_REQUEST); 409 listing conflicts. Event: change-request-applied.",
);

builder.mutationField("scheduleChangeRequest", (t) =>
  t.field({
    type: ChangeRequestRef,
    description:
      "Approved (or Scheduled) → Scheduled at a future time (APPLY_CHANGE_REQUEST). Event: change-request-scheduled.",
    args: {
      project: t.arg({ ...target.project }),
      id: t.arg({ ...target.id }),
      scheduledAt: t.arg({ type: "DateTime", required: true, description: "When to apply it." }),
      comment: t.arg.string({ description: "Optional comment." }),
    },
    authScopes: { authenticated: true },
    resolve: (_root, args, ctx) =>
      runStateChange(ctx, args.project, args.id, {
        state: "Scheduled",
        scheduledAt: args.scheduledAt,
        comment: args.comment,
      }),
  }),
);

builder.mutationField("changeChangeRequestState", (t) =>
  t.field({
    type: ChangeRequestRef,
    description:
      "Moves a change request to a state (In review, Approved, Rejected, Cancelled, Applied, Scheduled).",
    args: {
      project: t.arg({ ...target.project }),
      id: t.arg({ ...target.id }),
      state: t.arg.string({ required: true, description: "The state to move to." }),
      comment: t.arg.string({ description: "Optional comment." }),
      scheduledAt: t.arg({ type: "JSON", description: "RFC 3339 time; required for Scheduled." }),
    },
    authScopes: { authenticated: true },
    resolve: (_root, args, ctx) =>
      runStateChange(ctx, args.project, args.id, {
        state: args.state as "Approved",
        comment: args.comment,
        scheduledAt: args.scheduledAt as string | undefined,
      }),
  }),
);

builder.mutationField("editChangeRequestChange", (t) =>
  t.field({
    type: ChangeRequestRef,
    description:
      "Replaces a change's payload; after submission this revokes approvals. Event: change-edited.",
    args: {
      project: t.arg({ ...target.project }),
      id: t.arg({ ...target.id }),
      changeId: t.arg.int({ required: true, description: "Change id." }),
      payload: t.arg({ type: "JSON", description: "The new payload." }),
    },
    authScopes: { authenticated: true },
    resolve: async (_root, args, ctx) => {
      const principal = principalOf(ctx);
      await runWrite(ctx, (w) => editChange(w, principal, args, args.payload, ctx.config.limits));
      return viewAfter(ctx, args.id);
    },
  }),
);

builder.mutationField("discardChangeRequestChange", (t) =>
  t.field({
    type: ChangeRequestRef,
    description: "Removes a change from the request. Event: change-discarded.",
    args: {
      project: t.arg({ ...target.project }),
      id: t.arg({ ...target.id }),
      changeId: t.arg.int({ required: true, description: "Change id." }),
    },
    authScopes: { authenticated: true },
    resolve: async (_root, args, ctx) => {
      const principal = principalOf(ctx);
      await runWrite(ctx, (w) => discardChange(w, principal, args));
      return viewAfter(ctx, args.id);
    },
  }),
);

builder.mutationField("discardChangeRequest", (t) =>
  t.boolean({
    description: "Deletes a Draft change request, by its author. Event: change-request-discarded.",
    args: { project: t.arg({ ...target.project }), id: t.arg({ ...target.id }) },
    authScopes: { authenticated: true },
    resolve: async (_root, args, ctx) => {
      const principal = principalOf(ctx);
      await runWrite(ctx, (w) => discardDraft(w, principal, args.project, args.id));
      return true;
    },
  }),
);

builder.mutationField("commentOnChangeRequest", (t) =>
  t.field({
    type: ChangeRequestRef,
    description: "Adds a comment, in any state.",
    args: {
      project: t.arg({ ...target.project }),
      id: t.arg({ ...target.id }),
      text: t.arg.string({ required: true, description: "The comment." }),
    },
    authScopes: { authenticated: true },
    resolve: async (_root, args, ctx) => {
      await runWrite(ctx, (w) => commentOn(w, args.project, args.id, args.text));
      return viewAfter(ctx, args.id);
    },
  }),
);

builder.mutationField("updateChangeRequestTitle", (t) =>
  t.field({
    type: ChangeRequestRef,
    description: "Sets the title, by the author.",
    args: {
      project: t.arg({ ...target.project }),
      id: t.arg({ ...target.id }),
      title: t.arg.string({ required: true, description: "The title." }),
    },
    authScopes: { authenticated: true },
    resolve: async (_root, args, ctx) => {
      const principal = principalOf(ctx);
      await runWrite(ctx, (w) => setTitle(w, principal, args.project, args.id, args.title));
      return viewAfter(ctx, args.id);
    },
  }),
);
