import type { Tx } from "../../db/database.ts";
import { NotFoundError } from "../../shared/errors.ts";

// The guard that reads these settings on every direct change to a flag, and the read of one
// setting, are in feature-environments/guards.read.ts: the modules it guards are below this one.

/** Per environment of a project: are change requests required, and how many approvals. */
export type ChangeRequestConfig = {
  environment: string;
  type: string;
  changeRequestEnabled: boolean;
  requiredApprovals: number | null;
};

/** Per environment of the project, in environment order: the change-request setting. */
export async function projectChangeRequestConfig(tx: Tx, project: string): Promise<ChangeRequestConfig[]> {
  const found = await tx.project.findUnique({
    where: { id: project },
    include: {
      environments: { include: { environment: true } },
      changeRequestSettings: true,
    },
  });
  if (!found) throw new NotFoundError(`Could not find project "${project}"`);
  const byEnv = new Map(found.changeRequestSettings.map((s) => [s.environmentName, s.requiredApprovals]));
  return found.environments
    .map((pe) => pe.environment)
    .sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name))
    .map((env) => ({
      environment: env.name,
      type: env.type,
      changeRequestEnabled: byEnv.has(env.name),
      requiredApprovals: byEnv.get(env.name) ?? null,
    }));
}
