import type { Tx } from "../../db/database.ts";
import { ArchivedFeatureError, NotFoundError } from "../../shared/errors.ts";
import { sqlOf } from "../../shared/sql.ts";

// Every write to a flag, whichever module makes it (features, feature-environments,
// dependencies, change-requests, time-travel), starts by locking the flag's row here. The lock
// lives in the lowest of those modules, so that each of them can import it without a module cycle.

type FeatureRow = NonNullable<Awaited<ReturnType<Tx["feature"]["findUnique"]>>>;

/**
 * Unleash's answers for a flag reached through a project path (`/projects/:p/features/:f`):
 * unknown flag, or a flag that lives in another project, is a 404; an archived flag is
 * refused unless `allowArchived`.
 */
export function checkFeature(
  feature: FeatureRow | undefined | null,
  featureName: string,
  projectId: string | null,
  allowArchived: boolean,
) {
  if (!feature) throw new NotFoundError(`Could not find feature flag "${featureName}"`);
  if (projectId !== null && feature.projectId !== projectId) {
    throw new NotFoundError(
      `There's no feature named "${featureName}" in project "${projectId}", but there's a feature with that name in project "${feature.projectId}"`,
    );
  }
  if (feature.archivedAt && !allowArchived) throw new ArchivedFeatureError();
  return feature;
}

/**
 * Loads a flag for a change (`projectId` null: a path without a project) and keeps its row
 * locked until the transaction ends. Every write to a flag starts here, so concurrent writes
 * to one flag run one after the other at READ COMMITTED and each sees what the previous one
 * committed (one default strategy for 50 concurrent "on", one enabled event). NO KEY UPDATE
 * lets other transactions insert rows that reference the flag meanwhile.
 */
export async function lockFeature(
  tx: Tx,
  projectId: string | null,
  featureName: string,
  allowArchived = false,
) {
  const [feature] = await sqlOf(tx).query<FeatureRow>`
    SELECT * FROM "Feature" WHERE name = ${featureName} FOR NO KEY UPDATE`;
  return checkFeature(feature, featureName, projectId, allowArchived);
}

type EnvironmentRow = NonNullable<Awaited<ReturnType<Tx["featureEnvironment"]["findUnique"]>>>;

/**
 * `lockFeature` and the flag's state in one environment, in one statement (a flag's
 * per-environment writes all start here). The environment row is locked too: after waiting
 * for a concurrent writer of the flag, PostgreSQL then hands out the environment row as that
 * writer committed it (a row only joined, not locked, would be the one seen before the wait).
 * When no row comes back, the two-step reads give Unleash's answers (flag or environment 404).
 */
export async function lockFeatureIn(tx: Tx, projectId: string, featureName: string, environment: string) {
  const [row] = await sqlOf(tx).query<
    FeatureRow & { envEnabled: boolean; envVariants: unknown; envLastSeenAt: Date | null }
  >`
    SELECT f.*, fe.enabled AS "envEnabled", fe.variants AS "envVariants", fe."lastSeenAt" AS "envLastSeenAt"
      FROM "Feature" f
      JOIN "FeatureEnvironment" fe ON fe."featureName" = f.name AND fe."environmentName" = ${environment}
     WHERE f.name = ${featureName}
       FOR NO KEY UPDATE OF f, fe`;
  if (!row) {
    const feature = await lockFeature(tx, projectId, featureName);
    return { feature, environment: await featureEnvironment(tx, featureName, environment) };
  }
  const { envEnabled, envVariants, envLastSeenAt, ...feature } = row;
  const state: EnvironmentRow = {
    featureName,
    environmentName: environment,
    enabled: envEnabled,
    variants: envVariants as EnvironmentRow["variants"],
    lastSeenAt: envLastSeenAt,
  };
  return { feature: checkFeature(feature, featureName, projectId, false), environment: state };
}

/**
 * The rows of several flags, locked as `lockFeature` does, in name order so that two writers
 * locking overlapping sets cannot deadlock. Unknown names are simply absent.
 */
export function lockFeatureRows(tx: Tx, names: string[]) {
  const sorted = [...new Set(names)].sort();
  return sqlOf(tx).query<FeatureRow>`
    SELECT * FROM "Feature" WHERE name = ANY(${sorted}::text[]) ORDER BY name FOR NO KEY UPDATE`;
}

/** `lockFeature` for several flags of a project (each name once, in the order given). */
export async function lockFeatures(tx: Tx, projectId: string, names: string[], allowArchived = false) {
  const rows = new Map((await lockFeatureRows(tx, names)).map((row) => [row.name, row]));
  return [...new Set(names)].map((name) => checkFeature(rows.get(name), name, projectId, allowArchived));
}

/** The flag's state in one environment, or 404 when the flag's project does not have it. */
export async function featureEnvironment(tx: Tx, featureName: string, environment: string) {
  const row = await tx.featureEnvironment.findUnique({
    where: { featureName_environmentName: { featureName, environmentName: environment } },
  });
  if (!row) throw missingEnvironment(featureName, environment);
  return row;
}

const missingEnvironment = (featureName: string, environment: string) =>
  new NotFoundError(`Could not find environment ${environment} for feature: ${featureName}`);
