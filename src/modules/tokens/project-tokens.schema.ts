import { builder } from "../../builder.ts";
import type { Db } from "../../db/database.ts";
import { recordEvent } from "../../events/record.ts";
import { NotFoundError, ValidationError } from "../../shared/errors.ts";
import { lockRow } from "../../shared/row-lock.ts";
import { runWrite } from "../../shared/write.ts";
import { hashSecret } from "../access/credentials.write.ts";
import { PERMISSIONS } from "../access/permissions.logic.ts";
import { apiTokenEventData, createApiToken } from "./api-tokens.write.ts";
import { CreatedApiTokenRef } from "./tokens.schema.ts";

/**
 * Project API tokens (Unleash's `/projects/{projectId}/api-tokens`): client and frontend
 * tokens that serve one project, managed with project permissions (Owners hold
 * them in their project; Editors everywhere; Members do not).
 */

async function assertProject(db: Pick<Db, "project">, id: string) {
  if (!(await db.project.findFirst({ where: { id, archivedAt: null } }))) {
    throw new NotFoundError(`Could not find project with id "${id}"`);
  }
}

const PROJECT_TOKEN_TYPES = ["client", "frontend"];

builder.queryField("projectApiTokens", (t) =>
  t.prismaField({
    type: ["ApiToken"],
    description: "Client and frontend tokens that serve the project (without secrets), newest first.",
    args: { project: t.arg.string({ required: true, description: "Project id." }) },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.READ_PROJECT_API_TOKEN, project: args.project },
    }),
    resolve: async (query, _root, args, ctx) => {
      await assertProject(ctx.db, args.project);
      return ctx.db.apiToken.findMany({
        ...query,
        where: { type: { in: PROJECT_TOKEN_TYPES }, projects: { has: args.project } },
        orderBy: { id: "desc" },
      });
    },
  }),
);

const ProjectApiTokenInput = builder.inputType("ProjectApiTokenInput", {
  description: "A new token for one project.",
  fields: (t) => ({
    tokenName: t.string({ required: true, description: "A name to recognise it by." }),
    type: t.string({ required: true, description: "client (or backend) or frontend." }),
    environment: t.string({ description: "The one environment it serves; default development." }),
    expiresAt: t.field({ type: "DateTime", description: "Expiry; default never." }),
  }),
});

builder.mutationField("createProjectApiToken", (t) =>
  t.field({
    type: CreatedApiTokenRef,
    description:
      "Creates a client or frontend token for one project and returns its secret once; records api-token-created.",
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      input: t.arg({ type: ProjectApiTokenInput, required: true, description: "The token." }),
    },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.CREATE_PROJECT_API_TOKEN, project: args.project },
    }),
    resolve: (_root, args, ctx) =>
      runWrite(ctx, async (w) => {
        await assertProject(w.tx, args.project);
        if (!/^(client|backend|frontend)$/i.test(args.input.type)) {
          throw new ValidationError('type: a project token is "client", "backend" or "frontend"', [
            { message: "type must be client, backend or frontend", path: "type" },
          ]);
        }
        return createApiToken(w, { ...args.input, projects: [args.project] }, ctx.config.limits.apiTokens);
      }),
  }),
);

builder.mutationField("deleteProjectApiToken", (t) =>
  t.boolean({
    description:
      "Revokes a token of the project given by its secret; records api-token-deleted. False when no token of the project has that secret. A token that serves other projects too: VALIDATION.",
    args: {
      project: t.arg.string({ required: true, description: "Project id." }),
      secret: t.arg.string({ required: true, description: "The token's secret." }),
    },
    authScopes: (_root, args) => ({
      permission: { permission: PERMISSIONS.DELETE_PROJECT_API_TOKEN, project: args.project },
    }),
    resolve: (_root, args, ctx) =>
      runWrite(ctx, async (w) => {
        await assertProject(w.tx, args.project);
        const match = await w.tx.apiToken.findUnique({ where: { secretHash: hashSecret(args.secret) } });
        if (!match?.projects.includes(args.project) || !PROJECT_TOKEN_TYPES.includes(match.type)) {
          return false;
        }
        if (match.projects.length > 1) {
          throw new ValidationError(
            "This token serves other projects too; revoke it with DELETE /api/admin/api-tokens/{id}.",
          );
        }
        await lockRow(w.tx, "ApiToken", match.id);
        const deleted = await w.tx.apiToken.deleteMany({ where: { id: match.id } });
        if (deleted.count === 0) return false;
        await recordEvent(w, {
          type: "api-token-deleted",
          project: args.project,
          environment: match.environment,
          preData: apiTokenEventData(match),
        });
        return true;
      }),
  }),
);
