import type { Db, Tx } from "../../db/database.ts";

/** The state of flag `featureName` in environment `environmentName`, or null. */
export function featureEnvironmentOf(db: Db | Tx, featureName: string, environmentName: string) {
  return db.featureEnvironment.findUnique({
    where: { featureName_environmentName: { featureName, environmentName } },
  });
}

/** The states of flag `featureName` in every environment, by environment name. */
export function featureEnvironmentsOf(db: Db | Tx, featureName: string) {
  return db.featureEnvironment.findMany({ where: { featureName }, orderBy: { environmentName: "asc" } });
}

/** The variants of flag `featureName` in each environment. */
export function environmentVariantsOfFlag(db: Db | Tx, featureName: string) {
  return db.featureEnvironment.findMany({ where: { featureName }, select: { variants: true } });
}
