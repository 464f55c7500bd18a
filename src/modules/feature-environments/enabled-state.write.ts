import { recordEvent } from "../../events/record.ts";
import { sqlOf } from "../../shared/sql.ts";
import type { Write } from "../../shared/write.ts";
import type { EnvironmentTarget } from "./strategy-record.read.ts";

/**
 * After a strategy is removed or changed: an enabled environment without any enabled
 * strategy is turned off (feature-environment-disabled), as Unleash does.
 */
export async function disableWhenNoEnabledStrategy(w: Write, target: EnvironmentTarget) {
  const state = await w.tx.featureEnvironment.findUniqueOrThrow({
    where: {
      featureName_environmentName: { featureName: target.feature, environmentName: target.environment },
    },
  });
  if (!state.enabled) return;
  const enabledCount = await w.tx.featureStrategy.count({
    where: { featureName: target.feature, environmentName: target.environment, disabled: false },
  });
  if (enabledCount === 0) await setEnabled(w, target, true, false);
}

/** Switches the flag in the environment; feature-environment-enabled/-disabled when it flips. */
export async function setEnabled(w: Write, target: EnvironmentTarget, current: boolean, enabled: boolean) {
  if (current === enabled) return;
  // Raw: a toggle is the most frequent write, and a model update costs several times the
  // statement's CPU in Prisma's runtime.
  await sqlOf(w.tx).execute`
    UPDATE "FeatureEnvironment" SET enabled = ${enabled}
     WHERE "featureName" = ${target.feature} AND "environmentName" = ${target.environment}`;
  await recordSwitch(w, target, enabled);
}

/** The event of a flag switched on or off in the environment. */
export async function recordSwitch(w: Write, target: EnvironmentTarget, enabled: boolean) {
  await recordEvent(w, {
    type: enabled ? "feature-environment-enabled" : "feature-environment-disabled",
    project: target.project,
    environment: target.environment,
    featureName: target.feature,
  });
}

/**
 * Turns the flag off in the environment if it is on there, in the project and not archived,
 * taking the flag's lock (as every write to it: feature-lock.read.ts) in the same statement: a
 * round trip less for the most frequent write. The subquery locks the flag's row, waiting for a
 * writer of the flag; the update then locks the environment's row and rechecks it as that
 * writer committed it (READ COMMITTED). False when nothing changed: the caller then reads the
 * state (and the errors) under the lock it holds.
 */
export async function switchOffUnderLock(w: Write, target: EnvironmentTarget): Promise<boolean> {
  const switched = await sqlOf(w.tx).execute`
    UPDATE "FeatureEnvironment" fe SET enabled = false
      FROM (SELECT f.name, f."projectId", f."archivedAt" FROM "Feature" f
             WHERE f.name = ${target.feature} FOR NO KEY UPDATE) f
     WHERE fe."featureName" = f.name AND fe."environmentName" = ${target.environment} AND fe.enabled
       AND f."projectId" = ${target.project} AND f."archivedAt" IS NULL`;
  return switched > 0;
}
