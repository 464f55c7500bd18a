import { recordEvent } from "../../events/record.ts";
import { sqlOf } from "../../shared/sql.ts";
import type { Write } from "../../shared/write.ts";
import { enablementStateOf } from "./enablement.read.ts";
import type { EnvironmentTarget } from "./strategy-record.read.ts";

/**
 * After a strategy is removed or changed: an enabled environment without any enabled
 * strategy is turned off (feature-environment-disabled), as Unleash does.
 */
export async function disableWhenNoEnabledStrategy(w: Write, target: EnvironmentTarget) {
  const state = await enablementStateOf(w.tx, target);
  if (state?.enabled && state.enabledStrategies === 0) await setEnabled(w, target, true, false);
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

async function recordSwitch(w: Write, target: EnvironmentTarget, enabled: boolean) {
  await recordEvent(w, {
    type: enabled ? "feature-environment-enabled" : "feature-environment-disabled",
    project: target.project,
    environment: target.environment,
    featureName: target.feature,
  });
}
