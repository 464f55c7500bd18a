import type { ResourceLimits } from "../../config.ts";
import { recordEvent } from "../../events/record.ts";
import type { Write } from "../../shared/write.ts";
import { PERMISSIONS, type Permission } from "../access/permissions.ts";
import { featureEnvironment, featureInProject } from "../features/feature.read.ts";
import type { ChangeAction } from "./change-request.inputs.ts";

/** A change's flag target: the change request's project and environment plus the flag. */
export type ApplyTarget = { project: string; environment: string; feature: string };

/**
 * Applies one recorded change as the direct-change service would, inside the change
 * request's Write (grouped under `change-request`). `feature` is null for segment actions.
 */
export type Applier = (
  w: Write,
  target: { project: string; environment: string; feature: string | null },
  payload: unknown,
  limits: ResourceLimits,
) => Promise<void>;

/** Permission a proposer needs for each action: the one the direct change needs. */
export const PROPOSE_PERMISSION: Record<ChangeAction, Permission> = {
  updateSegment: PERMISSIONS.UPDATE_SEGMENT,
  deleteSegment: PERMISSIONS.DELETE_SEGMENT,
  updateEnabled: PERMISSIONS.UPDATE_FEATURE_ENVIRONMENT,
  addStrategy: PERMISSIONS.CREATE_FEATURE_STRATEGY,
  updateStrategy: PERMISSIONS.UPDATE_FEATURE_STRATEGY,
  deleteStrategy: PERMISSIONS.DELETE_FEATURE_STRATEGY,
  archiveFeature: PERMISSIONS.DELETE_FEATURE,
  patchVariant: PERMISSIONS.UPDATE_FEATURE_ENVIRONMENT_VARIANTS,
  reorderStrategy: PERMISSIONS.UPDATE_FEATURE_STRATEGY,
  addDependency: PERMISSIONS.UPDATE_FEATURE_DEPENDENCY,
  deleteDependency: PERMISSIONS.UPDATE_FEATURE_DEPENDENCY,
};

function flag(target: { feature: string | null }): string {
  if (!target.feature) throw new Error("a flag change without a flag reached the applier");
  return target.feature;
}

/** Switches the flag in the environment; the event only when the value flips. */
async function applyUpdateEnabled(w: Write, target: Parameters<Applier>[1], payload: unknown) {
  const feature = flag(target);
  await featureInProject(w.tx, target.project, feature);
  const row = await featureEnvironment(w.tx, feature, target.environment);
  const enabled = (payload as { enabled: boolean }).enabled;
  if (row.enabled === enabled) return;
  await w.tx.featureEnvironment.update({
    where: { featureName_environmentName: { featureName: feature, environmentName: target.environment } },
    data: { enabled },
  });
  await recordEvent(w, {
    type: enabled ? "feature-environment-enabled" : "feature-environment-disabled",
    project: target.project,
    environment: target.environment,
    featureName: feature,
  });
}

/**
 * The one table mapping each action to the service that applies it. Actions missing here
 * can be proposed and reviewed but applying them is refused until their service is wired.
 */
export const APPLIERS: Partial<Record<ChangeAction, Applier>> = {
  updateEnabled: applyUpdateEnabled,
};
