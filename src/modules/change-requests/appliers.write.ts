import type { ResourceLimits } from "../../config.ts";
import type { Write } from "../../shared/write.ts";
import { PERMISSIONS, type Permission } from "../access/permissions.logic.ts";
import { addDependency, removeAllDependencies } from "../dependencies/dependencies.write.ts";
import type { AddDependencyInput } from "../dependencies/dependency.inputs.ts";
import { changeEnablement } from "../feature-environments/enablement.write.ts";
import { setEnvironmentVariants } from "../feature-environments/environment-variants.write.ts";
import {
  addStrategy,
  deleteStrategy,
  reorderStrategies,
  updateStrategy,
} from "../feature-environments/strategies.write.ts";
import type {
  NewStrategyInput,
  StrategyUpdateInput,
  VariantInput,
} from "../feature-environments/strategy.inputs.ts";
import type { EnvironmentTarget } from "../feature-environments/strategy-record.read.ts";
import { archiveFeatures } from "../features/feature-archive.write.ts";
import type { SegmentInput } from "../segments/segment.inputs.ts";
import { segmentById } from "../segments/segment.read.ts";
import { deleteSegment, updateSegment } from "../segments/segment.write.ts";
import type { ChangeAction, OwnChangeAction } from "./change-request.inputs.ts";

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
  addReleasePlan: PERMISSIONS.UPDATE_FEATURE_STRATEGY,
  deleteReleasePlan: PERMISSIONS.UPDATE_FEATURE_STRATEGY,
  startMilestone: PERMISSIONS.UPDATE_FEATURE_STRATEGY,
};

function flag(target: { feature: string | null }): string {
  if (!target.feature) throw new Error("a flag change without a flag reached the applier");
  return target.feature;
}

const envTarget = (target: Parameters<Applier>[1]): EnvironmentTarget => ({
  project: target.project,
  environment: target.environment,
  feature: flag(target),
});

type Obj = Record<string, unknown>;

/** A segment change carries the segment's fields; the ones left out keep their value. */
async function applyUpdateSegment(
  w: Write,
  _target: Parameters<Applier>[1],
  payload: unknown,
  limits: ResourceLimits,
) {
  const { id, ...fields } = payload as Obj & { id: number };
  const current = await segmentById(w.tx, Number(id));
  await updateSegment(
    w,
    Number(id),
    {
      name: current.name,
      description: current.description,
      project: current.projectId,
      constraints: current.constraints as SegmentInput["constraints"],
      ...(fields as Partial<SegmentInput>),
    },
    limits,
    null,
  );
}

/**
 * The one table mapping each action to the service that applies it, called with the change
 * request's Write (grouped under `change-request`), exactly as the direct change would be. The
 * kinds of modules above this one come with the Write (`changeKinds`, src/change-kinds.ts).
 */
const APPLIERS: Record<OwnChangeAction, Applier> = {
  updateEnabled: async (w, target, payload, limits) => {
    const wanted = payload as { enabled: boolean; shouldActivateDisabledStrategies?: boolean };
    await changeEnablement(w, envTarget(target), wanted, limits);
  },
  addStrategy: async (w, target, payload, limits) => {
    await addStrategy(w, envTarget(target), payload as NewStrategyInput, limits);
  },
  updateStrategy: async (w, target, payload, limits) => {
    const { id, ...fields } = payload as Obj & { id: string };
    await updateStrategy(w, envTarget(target), id, fields as StrategyUpdateInput, limits);
  },
  deleteStrategy: (w, target, payload) =>
    deleteStrategy(w, envTarget(target), (payload as { id: string }).id),
  reorderStrategy: async (w, target, payload) => {
    await reorderStrategies(w, envTarget(target), payload as { id: string; sortOrder: number }[]);
  },
  patchVariant: async (w, target, payload) => {
    await setEnvironmentVariants(w, envTarget(target), (payload as { variants: VariantInput[] }).variants);
  },
  archiveFeature: async (w, target) => {
    await archiveFeatures(w, target.project, [flag(target)]);
  },
  addDependency: async (w, target, payload) => {
    await addDependency(w, target.project, flag(target), payload as AddDependencyInput);
  },
  deleteDependency: async (w, target) => {
    await removeAllDependencies(w, target.project, flag(target));
  },
  updateSegment: applyUpdateSegment,
  deleteSegment: async (w, _target, payload) => {
    await deleteSegment(w, Number((payload as { id: number }).id));
  },
};

/** The applier of an action: this module's, or the one the app gave for a kind it does not own. */
export function applierOf(w: Write, action: ChangeAction): Applier {
  const own = (APPLIERS as Partial<Record<ChangeAction, Applier>>)[action];
  const given = w.changeKinds[action]?.apply;
  const applier = own ?? given;
  if (!applier) throw new Error(`The app gives no applier for the change kind "${action}".`);
  return applier;
}
