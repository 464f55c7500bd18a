import { builder } from "../../builder.ts";
import { runWrite } from "../../shared/write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { principalOf } from "../change-requests/resolve.schema.ts";
import { type RestoreResult, restoreEnvironment, restoreFeature } from "./restore.write.ts";

const ProposedRef = builder
  .objectRef<RestoreResult["changeRequests"][number]>("RestoreChangeRequest")
  .implement({
    description: "A change request a restore proposed its changes in.",
    fields: (t) => ({
      environment: t.exposeString("environment", {
        description: "The environment requiring change requests.",
      }),
      id: t.exposeInt("id", { description: "The Draft change request holding the changes." }),
    }),
  });

const SkippedRef = builder.objectRef<RestoreResult["skipped"][number]>("RestoreSkipped").implement({
  description: "A flag a restore left as it is.",
  fields: (t) => ({
    feature: t.exposeString("feature", { description: "Flag name." }),
    reason: t.exposeString("reason", { description: "Why." }),
  }),
});

const RestoreResultRef = builder.objectRef<RestoreResult>("RestoreResult").implement({
  description: "What a restore did: changes applied directly (with their events) or proposed.",
  fields: (t) => ({
    changeRequests: t.field({
      type: [ProposedRef],
      resolve: (r) => r.changeRequests,
      description: "Change requests the changes were proposed in.",
    }),
    events: t.exposeInt("events", { description: "Events recorded by the changes applied directly." }),
    skipped: t.field({ type: [SkippedRef], resolve: (r) => r.skipped, description: "Flags left alone." }),
  }),
});

builder.mutationFields((t) => ({
  restoreFeature: t.field({
    type: RestoreResultRef,
    description:
      "Makes a flag what it was at `at`, as ordinary changes (proposed in a change request where the environment requires one). Refused (CONFLICT, listing them) when the past state uses what no longer exists.",
    args: {
      project: t.arg.string({ required: true, description: "Project of the flag." }),
      name: t.arg.string({ required: true, description: "Flag name." }),
      at: t.arg({ type: "DateTime", required: true, description: "The instant to go back to." }),
      environments: t.arg.stringList({ description: "Only these environments (default: all)." }),
    },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.UPDATE_FEATURE, project: args.project },
    }),
    resolve: (_root, args, ctx) =>
      runWrite(ctx, (w) =>
        restoreFeature(
          { w, principal: principalOf(ctx), limits: ctx.config.limits },
          { project: args.project, name: args.name, at: args.at, environments: args.environments ?? null },
        ),
      ),
  }),
  restoreEnvironment: t.field({
    type: RestoreResultRef,
    description:
      "Makes every flag of a project in one environment what it was there at `at` (on/off, strategies, variants), as ordinary changes (one change request where the environment requires them).",
    args: {
      project: t.arg.string({ required: true, description: "Project." }),
      environment: t.arg.string({ required: true, description: "Environment." }),
      at: t.arg({ type: "DateTime", required: true, description: "The instant to go back to." }),
    },
    authScopes: (_root, args) => ({
      permission: {
        permission: PERMISSIONS.UPDATE_FEATURE_ENVIRONMENT,
        project: args.project,
        environment: args.environment,
      },
    }),
    resolve: (_root, args, ctx) =>
      runWrite(ctx, (w) =>
        restoreEnvironment({ w, principal: principalOf(ctx), limits: ctx.config.limits }, args),
      ),
  }),
}));
