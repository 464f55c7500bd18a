import { recordEvent } from "../../events/record.ts";
import { ConflictError, NotFoundError } from "../../shared/errors.ts";
import { lockRow } from "../../shared/row-lock.ts";
import type { Write } from "../../shared/write.ts";
import type { Principal } from "../access/principal.types.ts";
import { openChangeRequestCountIn } from "../change-requests/view.read.ts";
import type { CreateEnvironmentInput } from "../environments/environment.inputs.ts";
import {
  createEnvironment,
  deleteEnvironmentRow,
  lockEnvironment,
} from "../environments/environment.write.ts";
import { copyProjectFlagsToEnvironment } from "../feature-environments/feature-environment.write.ts";
import { apiTokenCountIn } from "../tokens/api-tokens.read.ts";
import { findProject } from "./project.read.ts";
import { disableProjectEnvironment } from "./project-environments.write.ts";

/*
 * An environment's whole life across projects (Unleash Enterprise's environment delete and
 * clone): what it does to each project is what disabling or enabling it there does, with the
 * same per-project events, so every flag's history (time travel) follows (D-23).
 */

/**
 * Deletes an environment: removed from every project first (its flags' states and strategies
 * there go, `project-environment-removed` per project, refused where change requests guard it
 * and the caller may not skip them, or where it is a project's last environment), then
 * `environment-deleted`. Refused while API tokens or open change requests are for it
 * (Conflict: they would point at nothing) and for a protected environment (InvalidOperation).
 */
export async function deleteEnvironment(w: Write, principal: Principal | null, name: string) {
  const environment = await lockEnvironment(w, name);
  const tokens = await apiTokenCountIn(w.tx, name);
  if (tokens > 0) {
    throw new ConflictError(`${tokens} API token(s) are for the environment "${name}": delete them first.`);
  }
  const requests = await openChangeRequestCountIn(w.tx, name);
  if (requests > 0) {
    throw new ConflictError(
      `${requests} change request(s) are open in the environment "${name}": apply, reject or cancel them first.`,
    );
  }
  const links = await w.tx.projectEnvironment.findMany({
    where: { environmentName: name },
    select: { projectId: true },
    orderBy: { projectId: "asc" },
  });
  for (const link of links) await disableProjectEnvironment(w, principal, link.projectId, name);
  await deleteEnvironmentRow(w, environment);
}

export type CloneEnvironmentInput = Omit<CreateEnvironmentInput, "enabled"> & {
  /** The projects to clone it in (each must have the source enabled); default: all that do. */
  projects?: readonly string[] | null;
};

/**
 * Creates an environment as a copy of `source`: in each project (those given, or every project
 * with `source` enabled) it is enabled with the source's default strategy, and every flag has
 * there its state in `source` (on/off, variants, strategies with their segments). Events:
 * `environment-created`, then `project-environment-added` per project. Change-request settings
 * are not copied. NotFound (source, a project, a project without the source), NameExists,
 * Validation, LimitExceeded.
 */
export async function cloneEnvironment(
  w: Write,
  source: string,
  input: CloneEnvironmentInput,
  environmentLimit: number,
) {
  const from = await lockEnvironment(w, source);
  const { projects, ...fields } = input;
  const created = await createEnvironment(
    w,
    { sortOrder: from.sortOrder, ...fields, enabled: true },
    environmentLimit,
  );
  const targets =
    projects ??
    (
      await w.tx.projectEnvironment.findMany({
        where: { environmentName: source },
        select: { projectId: true },
        orderBy: { projectId: "asc" },
      })
    ).map((link) => link.projectId);
  for (const projectId of new Set(targets)) await cloneInProject(w, projectId, source, created.name);
  return created;
}

async function cloneInProject(w: Write, projectId: string, from: string, to: string) {
  await lockRow(w.tx, "Project", projectId);
  await findProject(w.tx, projectId);
  const sourceLink = await w.tx.projectEnvironment.findUnique({
    where: { projectId_environmentName: { projectId, environmentName: from } },
  });
  if (!sourceLink) {
    throw new NotFoundError(`Project "${projectId}" does not have the environment "${from}" enabled.`);
  }
  await w.tx.projectEnvironment.create({
    data: {
      projectId,
      environmentName: to,
      defaultStrategy: sourceLink.defaultStrategy ?? undefined,
      createdAt: w.now,
    },
  });
  await copyProjectFlagsToEnvironment(w.tx, projectId, from, to, w.now);
  await recordEvent(w, { type: "project-environment-added", project: projectId, environment: to });
}
