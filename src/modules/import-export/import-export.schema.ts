import { randomUUID } from "node:crypto";
import { builder } from "../../builder.ts";
import type { Context } from "../../context.ts";
import { actorOf } from "../../shared/actor.ts";
import { openTransaction } from "../../shared/direct-statements.ts";
import { AuthenticationRequired, DomainError } from "../../shared/errors.ts";
import { runWrite, type Write } from "../../shared/write.ts";
import { exportDocument } from "./export.read.ts";
import { type ImportResult, type ImportTarget, importFeatures } from "./import.write.ts";
import { type ImportItem, planImport } from "./import-plan.read.ts";

const ImportItemRef = builder.objectRef<ImportItem>("ImportValidationItem").implement({
  description: "One finding of an import validation (Unleash's importTogglesValidateItemSchema).",
  fields: (t) => ({
    message: t.exposeString("message", { description: "What was found." }),
    affectedItems: t.exposeStringList("affectedItems", {
      description: "The flags, fields, segments or permissions it concerns.",
    }),
  }),
});

type Validation = { errors: ImportItem[]; warnings: ImportItem[]; permissions: ImportItem[] };

const ImportValidationRef = builder.objectRef<Validation>("ImportValidation").implement({
  description: "What importing a document would do (Unleash's importTogglesValidateSchema).",
  fields: (t) => ({
    errors: t.field({
      type: [ImportItemRef],
      description: "Problems that refuse the import (it would answer 400 listing them).",
      resolve: (v) => v.errors,
    }),
    warnings: t.field({
      type: [ImportItemRef],
      description: "Things to know that do not stop it (flags that will be updated, custom strategy types).",
      resolve: (v) => v.warnings,
    }),
    permissions: t.field({
      type: [ImportItemRef],
      description: "Permissions the caller lacks for this import; empty when none.",
      resolve: (v) => v.permissions,
    }),
  }),
});

const ImportResultRef = builder.objectRef<ImportResult>("ImportResult").implement({
  description: "What an import did.",
  fields: (t) => ({
    created: t.exposeStringList("created", { description: "Flags created." }),
    updated: t.exposeStringList("updated", {
      description: "Flags that existed in the project and were updated.",
    }),
    events: t.exposeInt("events", { description: "Events recorded (0 when the import changed nothing)." }),
  }),
});

const importArgs = builder.args((t) => ({
  project: t.string({ required: true, description: "The project the flags are imported into." }),
  environment: t.string({
    required: true,
    description: "The environment that receives the strategies, variants and on/off state.",
  }),
  data: t.field({
    type: "JSON",
    required: true,
    description: "An export document (Unleash's exportResultSchema), as exportFeatures returns it.",
  }),
}));

builder.queryField("exportFeatures", (t) =>
  t.field({
    type: "JSON",
    description:
      "Unleash's export document (exportResultSchema) of the selected flags in one environment: flags, strategies, state and variants there, tags and tag types, segments (id and name) and context fields used, dependencies. Select by `features` (names; an empty list: every flag), else `tag` (`type:value` or a value), else `project`. Archived flags are left out.",
    authScopes: { authenticated: true },
    args: {
      environment: t.arg.string({ required: true, description: "The environment to export from." }),
      features: t.arg.stringList({ description: "Flag names; an empty list exports every flag." }),
      tag: t.arg.string({ description: "Flags carrying this tag: `type:value`, or a value of any type." }),
      project: t.arg.string({ description: "Every flag of this project (when no features or tag)." }),
    },
    resolve: (_root, args, ctx) => exportDocument(ctx.db, args),
  }),
);

builder.queryField("validateFeatureImport", (t) =>
  t.field({
    type: ImportValidationRef,
    description:
      "Checks an import without applying it (Unleash's validate): errors that would refuse it, warnings, and missing permissions. When there are none, the import is also tried in a transaction that is rolled back, so a problem only writing reveals (an invalid constraint, a limit) is reported too.",
    authScopes: { authenticated: true },
    args: importArgs,
    resolve: async (_root, args, ctx) => {
      const principal = principalOf(ctx);
      const target = { project: args.project, environment: args.environment };
      const plan = await planImport(ctx.db, principal, target.project, target.environment, args.data);
      const result = { errors: plan.errors, warnings: plan.warnings, permissions: plan.permissions };
      if (plan.errors.length === 0 && plan.permissions.length === 0) {
        const problem = await dryRun(ctx, target, args.data);
        if (problem) result.errors = [problem];
      }
      return result;
    },
  }),
);

builder.mutationField("importFeatures", (t) =>
  t.field({
    type: ImportResultRef,
    description:
      "Imports an export document into a project and environment in one transaction, recording the events the same changes through the API record. New flags are created, the project's existing ones updated; tags and dependencies become the imported ones; in the environment, strategies are replaced (when they differ), variants set, and the flag turned on or off. Missing tag types and context fields are created; segments must exist (matched by name). Refused as a whole: VALIDATION listing every problem (as validateFeatureImport), FORBIDDEN listing missing permissions, NOT_FOUND for the project or environment.",
    authScopes: { authenticated: true },
    args: importArgs,
    resolve: (_root, args, ctx) => {
      const principal = principalOf(ctx);
      const target = { project: args.project, environment: args.environment };
      return runWrite(ctx, (w) => importFeatures(w, principal, target, args.data, ctx.config.limits));
    },
  }),
);

function principalOf(ctx: Context) {
  if (!ctx.principal) throw new AuthenticationRequired();
  return ctx.principal;
}

class DryRunDone extends Error {}

/** Runs the import in a transaction that is always rolled back; its error, if any, as an item. */
async function dryRun(ctx: Context, target: ImportTarget, data: unknown): Promise<ImportItem | null> {
  const principal = principalOf(ctx);
  try {
    await openTransaction(
      ctx.db,
      async (tx) => {
        const w: Write = {
          tx,
          actor: actorOf(principal),
          now: ctx.now(),
          publicUrl: ctx.config.publicUrl,
          passwordHashCost: ctx.config.auth.passwordHashCost,
          groupType: "transaction",
          groupId: randomUUID(),
          recorded: [],
          eventHooks: ctx.eventHooks,
          changeKinds: ctx.changeKinds,
        };
        await importFeatures(w, principal, target, data, ctx.config.limits);
        throw new DryRunDone();
      },
      { maxWait: 10_000, timeout: 30_000 },
    );
  } catch (error) {
    if (error instanceof DryRunDone) return null;
    if (error instanceof DomainError) {
      return { message: "Applying the import fails:", affectedItems: error.details.map((d) => d.message) };
    }
    throw error;
  }
  return null;
}
