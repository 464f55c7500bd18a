import { builder, countedConnection } from "../../builder.ts";
import { actorOf } from "../../shared/actor.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { pageRequest, prismaPage, toConnection } from "../../shared/pagination.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { ChangeRequestConfigRef, ChangeRequestRef } from "./change-request.schema.ts";
import { ALL_STATES, OPEN_STATES } from "./change-request-states.types.ts";
import { proposeChanges } from "./propose.write.ts";
import { principalOf, viewAfter } from "./resolve.schema.ts";
import { projectChangeRequestConfig } from "./settings.read.ts";
import { updateChangeRequestConfig } from "./settings.write.ts";
import { authorOf } from "./store.write.ts";
import { changeRequestView, changeRequestViews } from "./view.read.ts";

const ChangeRequestConnection = countedConnection(
  "ChangeRequestConnection",
  ChangeRequestRef,
  "Number of change requests matching, across all pages.",
);

builder.queryField("changeRequest", (t) =>
  t.field({
    type: ChangeRequestRef,
    nullable: true,
    description: "One change request by id, or null when there is none.",
    authScopes: { authenticated: true },
    args: {
      id: t.arg.int({ required: true, description: "Change request id." }),
      project: t.arg.string({ description: "When given, a request of another project is a NotFound error." }),
    },
    resolve: async (_root, args, ctx) => {
      const view = await changeRequestView(ctx.db, args.id, ctx.changeKinds);
      if (args.project && view?.project !== args.project) {
        throw new NotFoundError(`Could not find change request ${args.id} in project "${args.project}"`);
      }
      return view;
    },
  }),
);

builder.queryField("changeRequests", (t) =>
  t.field({
    type: ChangeRequestConnection,
    description: "Change requests, newest first, filtered by project, environment, state and author.",
    authScopes: { authenticated: true },
    args: {
      project: t.arg.string({ description: "Only this project's." }),
      environment: t.arg.string({ description: "Only this environment's." }),
      state: t.arg.stringList({ description: `Only in these states (${ALL_STATES.join(", ")}).` }),
      open: t.arg.boolean({
        description: "true: only open ones (Draft, In review, Approved, Scheduled); false: only closed.",
      }),
      createdBy: t.arg.int({ description: "Only those created by this user id." }),
      first: t.arg.int({ description: "Page size (default 50, at most 1000)." }),
      after: t.arg.string({ description: "Cursor of the last item of the previous page." }),
      last: t.arg.int({ description: "Page size counted from the end (with `before`)." }),
      before: t.arg.string({ description: "Cursor of the first item of the next page (pages backwards)." }),
      offset: t.arg.int({ description: "Items to skip (alternative to `after`)." }),
    },
    resolve: async (_root, args, ctx) => {
      const request = pageRequest(args, { defaultLimit: 50, maxLimit: 1000 }, { name: "newest", size: 1 });
      const open = OPEN_STATES as readonly string[];
      const stateFilter =
        args.open === true ? { in: [...open] } : args.open === false ? { notIn: [...open] } : undefined;
      const where = {
        ...(args.project ? { projectId: args.project } : {}),
        ...(args.environment ? { environmentName: args.environment } : {}),
        ...(args.createdBy != null ? { createdByUserId: args.createdBy } : {}),
        AND: [
          ...(args.state ? [{ state: { in: args.state } }] : []),
          ...(stateFilter ? [{ state: stateFilter }] : []),
        ],
      };
      const page = prismaPage(request, [{ field: "id", descending: true }]);
      const [rows, total] = await Promise.all([
        ctx.db.changeRequest.findMany({ ...page, where: { AND: [where, page.where] }, select: { id: true } }),
        ctx.db.changeRequest.count({ where }),
      ]);
      const views = await changeRequestViews(
        ctx.db,
        rows.map((r) => r.id),
        ctx.changeKinds,
      );
      return toConnection(views, request, total, (view) => [view.id]);
    },
  }),
);

builder.queryField("openChangeRequests", (t) =>
  t.field({
    type: [ChangeRequestRef],
    description:
      "Spec 4.6: the caller's open change requests in a project (Draft, In review, Approved, Scheduled).",
    authScopes: { authenticated: true },
    args: { project: t.arg.string({ required: true, description: "Project id." }) },
    resolve: async (_root, args, ctx) => {
      const principal = principalOf(ctx);
      const rows = await ctx.db.changeRequest.findMany({
        where: {
          projectId: args.project,
          ...authorOf(actorOf(principal)),
          state: { in: [...OPEN_STATES] },
        },
        select: { id: true },
        orderBy: { id: "asc" },
      });
      return changeRequestViews(
        ctx.db,
        rows.map((r) => r.id),
        ctx.changeKinds,
      );
    },
  }),
);

builder.queryField("changeRequestConfig", (t) =>
  t.field({
    type: [ChangeRequestConfigRef],
    description: "For each environment of a project: are change requests required, and how many approvals.",
    authScopes: { authenticated: true },
    args: { project: t.arg.string({ required: true, description: "Project id." }) },
    resolve: (_root, args, ctx) => projectChangeRequestConfig(ctx.db, args.project),
  }),
);

builder.mutationField("updateChangeRequestConfig", (t) =>
  t.field({
    type: ChangeRequestConfigRef,
    description:
      "Turns change requests on or off in an environment of a project, with the approvals needed (0 to 10). Lowering the protection of an environment that requires change requests (turning them off, or fewer approvals) needs an Admin. Event: change-request-configuration-updated.",
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      environment: t.arg.string({ required: true, description: "Environment name." }),
      changeRequestsEnabled: t.arg.boolean({ required: true, description: "On or off." }),
      requiredApprovals: t.arg.int({ description: "Approvals needed, 0 to 10 (default 1)." }),
    },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.UPDATE_PROJECT, project: args.project },
    }),
    resolve: (_root, args, ctx) =>
      runWrite(ctx, (w) =>
        updateChangeRequestConfig(w, principalOf(ctx), args.project, args.environment, {
          changeRequestsEnabled: args.changeRequestsEnabled,
          requiredApprovals: args.requiredApprovals ?? undefined,
        }),
      ),
  }),
);

const ChangeInput = builder.inputType("ChangeRequestChangeInput", {
  description: "One proposed change (spec 4.5).",
  fields: (t) => ({
    action: t.string({
      required: true,
      description:
        "One of the 11 actions of spec 4.5, or a release plan's: addReleasePlan, deleteReleasePlan, startMilestone.",
    }),
    feature: t.string({ description: "The flag; required except for segment actions." }),
    payload: t.field({ type: "JSON", description: "The action's data." }),
  }),
});

builder.mutationField("proposeChanges", (t) =>
  t.field({
    type: ChangeRequestRef,
    description:
      "Spec 4.5: adds changes to the caller's Draft change request for the environment, creating it when there is none. Events: change-request-created, change-added.",
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      environment: t.arg.string({ required: true, description: "Environment name." }),
      changes: t.arg({ type: [ChangeInput], required: true, description: "The changes (one or more)." }),
    },
    authScopes: { authenticated: true },
    resolve: async (_root, args, ctx) => {
      const scope = { project: args.project, environment: args.environment };
      const id = await runWrite(ctx, (w) =>
        proposeChanges(w, principalOf(ctx), scope, args.changes, ctx.config.limits),
      );
      return viewAfter(ctx, id);
    },
  }),
);
