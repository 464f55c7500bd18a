import type { ResourceLimits } from "../../config.ts";
import type { Write } from "../../shared/write.ts";
import { setEnabled } from "./enabled-state.write.ts";
import { type EnablementWanted, enablementSteps } from "./enablement.logic.ts";
import { enablementStateOf } from "./enablement.read.ts";
import { insertStrategy, recordStrategyUpdate } from "./strategies.write.ts";
import { type EnvironmentTarget, loadTarget, strategiesOf } from "./strategy-record.read.ts";

/**
 * Turns a flag on or off in one environment, as `enablementSteps` says, under the flag's lock
 * (so the state it reads is what a writer it waited for committed).
 * Errors: NotFound (flag in another project, environment), Archived, LimitExceeded.
 */
export async function changeEnablement(
  w: Write,
  target: EnvironmentTarget,
  wanted: EnablementWanted,
  limits: ResourceLimits,
) {
  await loadTarget(w, target);
  const state = await enablementStateOf(w.tx, target);
  if (!state) throw new Error("the locked flag's environment was not found");
  const steps = enablementSteps(state, wanted);
  if (steps.reactivateDisabled) {
    const strategies = await strategiesOf(w.tx, target.feature, target.environment);
    for (const before of strategies.filter((s) => s.disabled)) {
      const after = await w.tx.featureStrategy.update({
        where: { id: before.id },
        data: { disabled: false },
        include: { segments: { select: { segmentId: true }, orderBy: { segmentId: "asc" } } },
      });
      await recordStrategyUpdate(w, target, before, after);
    }
  }
  if (steps.addDefaultStrategy) await insertStrategy(w, target, await defaultStrategy(w, target), limits);
  await setEnabled(w, target, state.enabled, wanted.enabled);
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
