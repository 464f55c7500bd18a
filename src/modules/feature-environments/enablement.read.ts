import type { Db } from "../../db/database.ts";
import { sqlOf } from "../../shared/sql.ts";
import type { EnvironmentTarget } from "./strategy-record.read.ts";

export type EnablementWanted = { enabled: boolean; shouldActivateDisabledStrategies?: boolean };

/**
 * Whether turning the flag on (or off) in the environment would change nothing, read in one
 * statement without a lock: it is in the project, not archived, already in that state, and (on)
 * has an enabled strategy, and no disabled one to re-enable when asked to. Such a call is
 * answered without a transaction, so a repeated on/off (scripts and providers that apply a
 * desired state) never waits for a writer of the flag. Anything else, errors included, takes
 * the locked path (enablement.write.ts).
 */
export async function enablementChangesNothing(
  db: Db,
  target: EnvironmentTarget,
  wanted: EnablementWanted,
): Promise<boolean> {
  const [row] = await sqlOf(db).query<{
    enabled: boolean;
    project: string;
    archived: boolean;
    enabledStrategies: number;
    disabledStrategies: number;
  }>`
    SELECT fe.enabled, f."projectId" AS project, f."archivedAt" IS NOT NULL AS archived,
           (count(s.id) FILTER (WHERE NOT s.disabled))::int AS "enabledStrategies",
           (count(s.id) FILTER (WHERE s.disabled))::int AS "disabledStrategies"
      FROM "Feature" f
      JOIN "FeatureEnvironment" fe ON fe."featureName" = f.name AND fe."environmentName" = ${target.environment}
      LEFT JOIN "FeatureStrategy" s ON s."featureName" = f.name AND s."environmentName" = ${target.environment}
     WHERE f.name = ${target.feature}
     GROUP BY fe.enabled, f."projectId", f."archivedAt"`;
  if (!row || row.project !== target.project || row.archived || row.enabled !== wanted.enabled) return false;
  if (!wanted.enabled) return true;
  return (
    row.enabledStrategies > 0 && !(wanted.shouldActivateDisabledStrategies && row.disabledStrategies > 0)
  );
}
