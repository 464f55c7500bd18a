import type { Tx } from "../../db/database.ts";
import { ArchivedFeatureError, NotFoundError } from "../../shared/errors.ts";

/**
 * Loads a flag for a change through a project path (`/projects/:p/features/:f`), with
 * Unleash's messages: unknown flag, or a flag that lives in another project, is a 404;
 * an archived flag is refused unless `allowArchived`.
 */
export async function featureInProject(
  tx: Tx,
  projectId: string,
  featureName: string,
  allowArchived = false,
) {
  const feature = await tx.feature.findUnique({ where: { name: featureName } });
  if (!feature) throw new NotFoundError(`Could not find feature flag "${featureName}"`);
  if (feature.projectId !== projectId) {
    throw new NotFoundError(
      `There's no feature named "${featureName}" in project "${projectId}", but there's a feature with that name in project "${feature.projectId}"`,
    );
  }
  if (feature.archivedAt && !allowArchived) throw new ArchivedFeatureError();
  return feature;
}

/** The flag's state in one environment, or 404 when the flag's project does not have it. */
export async function featureEnvironment(tx: Tx, featureName: string, environment: string) {
  const row = await tx.featureEnvironment.findUnique({
    where: { featureName_environmentName: { featureName, environmentName: environment } },
  });
  if (!row) throw new NotFoundError(`Could not find environment ${environment} for feature: ${featureName}`);
  return row;
}

/** Loads a flag by name alone (paths without a project): 404 when unknown, 400 when archived. */
export async function featureByName(tx: Tx, featureName: string, allowArchived = false) {
  const feature = await tx.feature.findUnique({ where: { name: featureName } });
  if (!feature) throw new NotFoundError(`Could not find feature flag "${featureName}"`);
  if (feature.archivedAt && !allowArchived) throw new ArchivedFeatureError();
  return feature;
}
