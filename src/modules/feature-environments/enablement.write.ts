import type { ResourceLimits } from "../../config.ts";
import { sqlOf } from "../../shared/sql.ts";
import type { Write } from "../../shared/write.ts";
import { recordSwitch, setEnabled, switchOffUnderLock } from "./enabled-state.write.ts";
import { insertStrategy, recordStrategyUpdate } from "./strategies.write.ts";
import { type EnvironmentTarget, loadTarget, strategiesOf } from "./strategy-record.read.ts";

/**
 * Turns a flag on in one environment (spec 3.4, reference-behaviours §4). When no strategy
 * would apply (none, or all disabled) the project's default strategy for the environment is
 * added first (feature-strategy-add); with `shouldActivateDisabledStrategies` the disabled
 * strategies are re-enabled instead (feature-strategy-update each). Then
 * feature-environment-enabled, only if the environment was off.
 * Errors: NotFound (flag in another project, environment), Archived, LimitExceeded.
 */
export async function enableFeatureEnvironment(
  w: Write,
  target: EnvironmentTarget,
  options: { shouldActivateDisabledStrategies?: boolean },
  limits: ResourceLimits,
) {
  const { environment } = await loadTarget(w, target);
  const activate = options.shouldActivateDisabledStrategies ?? false;
  const counts = await switchOnWhenAStrategyApplies(w, target, !environment.enabled, activate);
  if (counts.switched) return recordSwitch(w, target, true);
  if (activate && counts.total > 0) {
    const strategies = await strategiesOf(w.tx, target.feature, target.environment);
    for (const before of strategies.filter((s) => s.disabled)) {
      const after = await w.tx.featureStrategy.update({
        where: { id: before.id },
        data: { disabled: false },
        include: { segments: { select: { segmentId: true }, orderBy: { segmentId: "asc" } } },
      });
      await recordStrategyUpdate(w, target, before, after);
    }
  } else if (counts.enabled === 0) {
    await insertStrategy(w, target, await defaultStrategy(w, target), limits);
  }
  await setEnabled(w, target, environment.enabled, true);
}

/**
 * How many strategies the flag has in the environment and how many of them are enabled, and,
 * when it is off there and nothing else is to be done first (an enabled strategy applies, and
 * none is disabled when `activate` asks to re-enable them), the flag switched on in the same
 * statement: a round trip less for the most frequent write. Runs under the flag's lock, so the
 * counts see what a writer it waited for committed.
 */
async function switchOnWhenAStrategyApplies(
  w: Write,
  target: EnvironmentTarget,
  isOff: boolean,
  activate: boolean,
) {
  const [row] = await sqlOf(w.tx).query<{ total: number; enabled: number; switched: boolean }>`
    WITH counts AS (
      SELECT count(*)::int AS total, (count(*) FILTER (WHERE NOT disabled))::int AS enabled
        FROM "FeatureStrategy"
       WHERE "featureName" = ${target.feature} AND "environmentName" = ${target.environment}
    ), switched AS (
      UPDATE "FeatureEnvironment" fe SET enabled = true FROM counts
       WHERE ${isOff} AND counts.enabled > 0 AND NOT (${activate} AND counts.total > counts.enabled)
         AND fe."featureName" = ${target.feature} AND fe."environmentName" = ${target.environment}
      RETURNING fe."featureName"
    )
    SELECT counts.*, EXISTS (SELECT FROM switched) AS switched FROM counts`;
  return row ?? { total: 0, enabled: 0, switched: false };
}

/** Turns a flag off in one environment; feature-environment-disabled only if it was on. */
export async function disableFeatureEnvironment(w: Write, target: EnvironmentTarget) {
  if (await switchOffUnderLock(w, target)) return recordSwitch(w, target, false);
  // Already off, or an answer to give (another project, archived, no such environment).
  const { environment } = await loadTarget(w, target);
  await setEnabled(w, target, environment.enabled, false);
}

type StoredDefaultStrategy = {
  name?: string;
  title?: string | null;
  parameters?: Record<string, string>;
  constraints?: never[];
  variants?: never[];
  segments?: number[];
};

/**
 * The project's default strategy for the environment when one is configured (its groupId
 * becomes the flag name, as in Unleash), else flexibleRollout 100% on `default` stickiness.
 */
async function defaultStrategy(w: Write, target: EnvironmentTarget) {
  const projectEnvironment = await w.tx.projectEnvironment.findUnique({
    where: { projectId_environmentName: { projectId: target.project, environmentName: target.environment } },
    select: { defaultStrategy: true },
  });
  const configured = projectEnvironment?.defaultStrategy as StoredDefaultStrategy | null | undefined;
  if (configured?.name) {
    const parameters = { ...(configured.parameters ?? {}) };
    if (configured.name === "flexibleRollout") parameters.groupId = target.feature;
    return {
      name: configured.name,
      title: configured.title ?? null,
      parameters,
      constraints: configured.constraints ?? [],
      variants: configured.variants ?? [],
      segments: configured.segments ?? [],
      disabled: false,
    };
  }
  return {
    name: "flexibleRollout",
    parameters: { rollout: "100", stickiness: "default", groupId: target.feature },
    constraints: [],
    variants: [],
    segments: [],
  };
}
