import type { ResourceLimits } from "../../config.ts";
import { recordEvent } from "../../events/record.ts";
import {
  InvalidOperationError,
  NameExistsError,
  NotFoundError,
  ValidationError,
} from "../../shared/errors.ts";
import { lockRow } from "../../shared/row-lock.ts";
import type { Write } from "../../shared/write.ts";
import type { Principal } from "../access/principal.types.ts";
import { updateChangeRequestConfig } from "../change-requests/settings.write.ts";
import { environmentNamed } from "../environments/environment.read.ts";
import {
  addEnvironmentToFlags,
  removeProjectFlagsFromEnvironment,
} from "../feature-environments/feature-environment.write.ts";
import { assertDirectChangeAllowed, changeRequestSetting } from "../feature-environments/guards.read.ts";
import { flagNamesOfProject } from "../features/feature.read.ts";
import { type DefaultStrategyInput, setDefaultStrategy } from "./default-strategy.write.ts";
import { findProject } from "./project.read.ts";

/**
 * Enables an environment for a project: links it and gives every flag of the project (archived
 * ones too, so a revived flag has it) a disabled state there without strategies.
 * Records `project-environment-added`. Throws NotFound (project, environment), NameExists
 * (already enabled, as Unleash answers 409).
 */
export async function enableProjectEnvironment(w: Write, projectId: string, environment: string) {
  // A project's environment links change one writer at a time (see disableProjectEnvironment).
  await lockRow(w.tx, "Project", projectId);
  await findProject(w.tx, projectId);
  await findEnvironment(w, environment);
  const link = { projectId_environmentName: { projectId, environmentName: environment } };
  if (await w.tx.projectEnvironment.findUnique({ where: link })) {
    throw new NameExistsError(`Project "${projectId}" already has the environment "${environment}" enabled.`);
  }
  await w.tx.projectEnvironment.create({
    data: { projectId, environmentName: environment, createdAt: w.now },
  });
  await addEnvironmentToFlags(w.tx, await flagNamesOfProject(w.tx, projectId), environment);
  await recordEvent(w, { type: "project-environment-added", project: projectId, environment });
}

/** What Unleash's addEnvironmentToProject also sets (its projectEnvironmentSchema). */
export type ProjectEnvironmentOptions = {
  defaultStrategy?: DefaultStrategyInput | null;
  changeRequestsEnabled?: boolean | null;
};

/**
 * Enables an environment for a project (enableProjectEnvironment), then, in the same Write, sets
 * its default strategy (setDefaultStrategy: validated as the default-strategy route validates it,
 * event default-strategy-updated) and turns change requests on or off there
 * (updateChangeRequestConfig with its default of 1 approval, event
 * change-request-configuration-updated). Each runs only when it changes something: an absent
 * option, or `changeRequestsEnabled` equal to the current setting (off, unless the project kept a
 * setting from an earlier time the environment was enabled), records nothing. Any refusal rolls
 * the whole Write back: no environment, no event.
 */
export async function addProjectEnvironment(
  w: Write,
  principal: Principal,
  projectId: string,
  environment: string,
  options: ProjectEnvironmentOptions,
  limits: ResourceLimits,
) {
  await enableProjectEnvironment(w, projectId, environment);
  const strategy = options.defaultStrategy;
  if (strategy) {
    try {
      await setDefaultStrategy(w, projectId, environment, strategy, limits);
    } catch (error) {
      // Its paths are the strategy's own: name the field they sit in.
      if (!(error instanceof ValidationError)) throw error;
      throw new ValidationError(
        `defaultStrategy: ${error.message}`,
        error.details.map((d) => ({
          message: `defaultStrategy: ${d.message}`,
          path: d.path ? `defaultStrategy.${d.path}` : "defaultStrategy",
        })),
      );
    }
  }
  const enabled = options.changeRequestsEnabled;
  if (typeof enabled === "boolean") {
    const current = Boolean(await changeRequestSetting(w.tx, projectId, environment));
    if (current !== enabled) {
      await updateChangeRequestConfig(w, principal, projectId, environment, {
        changeRequestsEnabled: enabled,
      });
    }
  }
}

/**
 * Disables an environment for a project: unlinks it and deletes the project's flags' state and
 * strategies there. A project keeps at least one environment (Unleash: 400/403 otherwise).
 * Where the environment requires change requests, this wipes reviewed state without review,
 * so it needs SKIP_CHANGE_REQUEST like any direct change there.
 * Records `project-environment-removed`. Throws NotFound (project, environment, not enabled).
 */
export async function disableProjectEnvironment(
  w: Write,
  principal: Principal | null,
  projectId: string,
  environment: string,
) {
  // Without it, two removals of a project's last two environments both count two and both remove.
  await lockRow(w.tx, "Project", projectId);
  await findProject(w.tx, projectId);
  await findEnvironment(w, environment);
  const link = { projectId_environmentName: { projectId, environmentName: environment } };
  if (!(await w.tx.projectEnvironment.findUnique({ where: link }))) {
    throw new NotFoundError(`Project "${projectId}" does not have the environment "${environment}" enabled.`);
  }
  if ((await w.tx.projectEnvironment.count({ where: { projectId } })) <= 1) {
    throw new InvalidOperationError("A project must always have at least one environment enabled.");
  }
  await assertDirectChangeAllowed(w.tx, principal, projectId, environment);
  await removeProjectFlagsFromEnvironment(w.tx, projectId, environment);
  await w.tx.projectEnvironment.delete({ where: link });
  await recordEvent(w, { type: "project-environment-removed", project: projectId, environment });
}

async function findEnvironment(w: Write, name: string) {
  const environment = await environmentNamed(w.tx, name);
  if (!environment) throw new NotFoundError(`Could not find environment "${name}"`);
  return environment;
}
