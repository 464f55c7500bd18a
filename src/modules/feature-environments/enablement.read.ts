import type { Db, Tx } from "../../db/database.ts";
import { sqlOf } from "../../shared/sql.ts";
import {
  changesNothing,
  type EnablementState,
  type EnablementWanted,
  enablementSteps,
} from "./enablement.logic.ts";
import type { EnvironmentTarget } from "./strategy-record.read.ts";

type EnablementRow = EnablementState & { project: string; archived: boolean };

/** The flag's state in the environment and its strategies' counts; undefined when either is unknown. */
export async function enablementStateOf(
  db: Db | Tx,
  target: EnvironmentTarget,
): Promise<EnablementRow | undefined> {
  const [row] = await sqlOf(db).query<EnablementRow>`
    SELECT fe.enabled, f."projectId" AS project, f."archivedAt" IS NOT NULL AS archived,
           (count(s.id) FILTER (WHERE NOT s.disabled))::int AS "enabledStrategies",
           (count(s.id) FILTER (WHERE s.disabled))::int AS "disabledStrategies"
      FROM "Feature" f
      JOIN "FeatureEnvironment" fe ON fe."featureName" = f.name AND fe."environmentName" = ${target.environment}
      LEFT JOIN "FeatureStrategy" s ON s."featureName" = f.name AND s."environmentName" = ${target.environment}
     WHERE f.name = ${target.feature}
     GROUP BY fe.enabled, f."projectId", f."archivedAt"`;
  return row;
}

/**
 * Whether turning the flag on (or off) in the environment would change nothing, read without a
 * lock. Such a call is answered without a transaction, so a repeated on/off (scripts and
 * providers that apply a desired state) never waits for a writer of the flag. Anything else,
 * errors included (another project, archived), takes the locked path (enablement.write.ts).
 */
export async function enablementChangesNothing(
  db: Db,
  target: EnvironmentTarget,
  wanted: EnablementWanted,
): Promise<boolean> {
  const row = await enablementStateOf(db, target);
  if (!row || row.project !== target.project || row.archived) return false;
  return changesNothing(enablementSteps(row, wanted));
}
