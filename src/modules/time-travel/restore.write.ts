import { isDeepStrictEqual } from "node:util";
import type { ResourceLimits } from "../../config.ts";
import type { Tx } from "../../db/database.ts";
import { ConflictError, NoAccessError, NotFoundError } from "../../shared/errors.ts";
import type { Write } from "../../shared/write.ts";
import { can } from "../access/grant-check.logic.ts";
import { PERMISSIONS, type Permission } from "../access/permissions.logic.ts";
import type { Principal } from "../access/principal.types.ts";
import { applierOf, PROPOSE_PERMISSION } from "../change-requests/appliers.write.ts";
import { proposeChanges } from "../change-requests/propose.write.ts";
import { addDependency, removeDependency } from "../dependencies/dependencies.write.ts";
import { lockFeatureRows } from "../feature-environments/feature-lock.read.ts";
import {
  assertDependencyChangeAllowed,
  assertDirectProjectChangeAllowed,
  changeRequestSetting,
} from "../feature-environments/guards.read.ts";
import { activeFlagNames } from "../features/feature.read.ts";
import { archiveFeatures, reviveFeatures } from "../features/feature-archive.write.ts";
import { addFeatureTag, removeFeatureTag } from "../features/feature-tags.write.ts";
import { updateFeature } from "../features/feature-update.write.ts";
import { readFlagRecord } from "../flag-record/flag-record.read.ts";
import { environmentNamesOfProject } from "../projects/project.read.ts";
import { existingSegmentIds } from "../segments/segment.read.ts";
import { tagTypeNames } from "../tags/tag.read.ts";
import type { FlagState, PastEnvironment } from "./flag-state.logic.ts";
import { environmentAt, type FlagAt, flagAt } from "./history.read.ts";
import { environmentPlan, type PlannedChange, segmentsOf } from "./restore-plan.logic.ts";

export type RestoreResult = {
  /** Change requests the restore proposed its changes in (environments that require them). */
  changeRequests: { environment: string; id: number }[];
  /** Events recorded by the changes applied directly. */
  events: number;
  /** Flags left as they are, with the reason. */
  skipped: { feature: string; reason: string }[];
};

type Restorer = { w: Write; principal: Principal; limits: ResourceLimits };

/** The flag as it is now, in the shape of its history (null when there is no such flag). */
function currentState(tx: Tx, name: string): Promise<FlagState | null> {
  return readFlagRecord(tx, name);
}

function requireCan(principal: Principal, permission: Permission, project: string, environment?: string) {
  if (!can(principal, { permission, project, ...(environment ? { environment } : {}) })) {
    throw new NoAccessError(permission, environment);
  }
}

const EMPTY_ENVIRONMENT = (name: string): PastEnvironment => ({
  name,
  enabled: false,
  variants: [],
  strategies: [],
});

/** The past state of a flag, or why it cannot be restored. */
function pastStateOf(flag: FlagAt | null, name: string, project: string): FlagState {
  if (!flag) throw new NotFoundError(`Flag "${name}" has no recorded history`);
  if (!flag.exact) {
    throw new ConflictError(
      `The history of flag "${name}" is exact only since ${flag.exactSince?.toISOString()}; choose a later instant.`,
    );
  }
  if (!flag.state) throw new ConflictError(`Flag "${name}" did not exist at ${flag.at.toISOString()}.`);
  if (flag.state.project !== project) {
    throw new NotFoundError(`Could not find feature flag "${name}" in project "${project}"`);
  }
  return flag.state;
}

/**
 * What the past state needs that no longer exists: segments its strategies used, environments
 * no longer enabled in the project, and (with `flagLevel`) tag types and parent flags.
 */
async function missingReferences(tx: Tx, past: FlagState[], project: string, flagLevel: boolean) {
  const problems: string[] = [];
  const environments = past.flatMap((p) => p.environments);
  const segmentIds = segmentsOf(environments);
  const segments = new Set(await existingSegmentIds(tx, segmentIds));
  for (const id of segmentIds) if (!segments.has(id)) problems.push(`segment ${id} (deleted)`);
  const linked = new Set(await environmentNamesOfProject(tx, project));
  for (const name of new Set(environments.map((e) => e.name))) {
    if (!linked.has(name)) problems.push(`environment "${name}" (no longer enabled in project "${project}")`);
  }
  if (flagLevel) {
    const tagTypes = new Set(await tagTypeNames(tx));
    for (const tag of past.flatMap((p) => p.tags)) {
      if (!tagTypes.has(tag.type)) problems.push(`tag type "${tag.type}" (deleted)`);
    }
    const parentNames = past.flatMap((p) => p.dependencies.map((d) => d.feature));
    const parents = await activeFlagNames(tx, parentNames);
    for (const name of parentNames) {
      if (!parents.includes(name)) problems.push(`parent flag "${name}" (deleted or archived)`);
    }
  }
  if (problems.length > 0) {
    throw new ConflictError(
      `Cannot restore: the past state uses what no longer exists: ${problems.join(", ")}.`,
      problems.map((message) => ({ message })),
    );
  }
}

/**
 * Applies one environment's changes as ordinary changes: proposed in the caller's Draft change
 * request where the environment requires change requests, else applied through the same
 * services as the direct changes, each checked against its own permission.
 */
async function applyInEnvironment(r: Restorer, project: string, environment: string, plan: PlannedChange[]) {
  if (plan.length === 0) return null;
  const scope = { project, environment };
  if (await changeRequestSetting(r.w.tx, project, environment)) {
    return { environment, id: await proposeChanges(r.w, r.principal, scope, plan, r.limits) };
  }
  for (const change of plan) {
    requireCan(r.principal, PROPOSE_PERMISSION[change.action], project, environment);
    await applierOf(r.w, change.action)(r.w, { ...scope, feature: change.feature }, change.payload, r.limits);
  }
  return null;
}

/** Metadata, stale, tags and dependencies back to `past` (the flag is active at this point). */
async function restoreFlagLevel(r: Restorer, past: FlagState, current: FlagState) {
  const { w, principal } = r;
  const fields = ["description", "type", "impressionData", "stale"] as const;
  if (fields.some((f) => past[f] !== current[f])) {
    requireCan(principal, PERMISSIONS.UPDATE_FEATURE, past.project);
    await updateFeature(w, past.project, past.name, {
      description: past.description,
      type: past.type,
      impressionData: past.impressionData,
      stale: past.stale,
    });
  }
  const same = (a: { type: string; value: string }, b: { type: string; value: string }) =>
    a.type === b.type && a.value === b.value;
  const tagsToAdd = past.tags.filter((t) => !current.tags.some((c) => same(c, t)));
  const tagsToRemove = current.tags.filter((t) => !past.tags.some((p) => same(p, t)));
  if (tagsToAdd.length + tagsToRemove.length > 0)
    requireCan(principal, PERMISSIONS.UPDATE_FEATURE, past.project);
  for (const tag of tagsToRemove) await removeFeatureTag(w, past.name, tag);
  for (const tag of tagsToAdd) await addFeatureTag(w, past.name, tag);
  const linksToRemove = current.dependencies.filter(
    (d) => !past.dependencies.some((p) => p.feature === d.feature),
  );
  const linksToSet = past.dependencies.filter(
    (p) => !current.dependencies.some((d) => isDeepStrictEqual(d, p)),
  );
  if (linksToRemove.length + linksToSet.length > 0) {
    requireCan(principal, PERMISSIONS.UPDATE_FEATURE_DEPENDENCY, past.project);
    await assertDependencyChangeAllowed(w, principal, past.project);
  }
  for (const link of linksToRemove) await removeDependency(w, past.project, past.name, link.feature);
  for (const link of linksToSet) await addDependency(w, past.project, past.name, link);
}

/**
 * Makes flag `name` of `project` what it was at `at` (in `environments` only, when given), as
 * ordinary changes with their ordinary events and checks. An archived flag to be active is
 * revived first; an active one to be archived is archived last. A flag archived both then and
 * now cannot be changed and is skipped. Refuses (ConflictError, listing them) when the past
 * state uses what no longer exists; NotFound for an unknown flag, Conflict for a deleted one.
 */
export async function restoreFeature(
  r: Restorer,
  target: { project: string; name: string; at: Date; environments: string[] | null },
): Promise<RestoreResult> {
  const past = pastStateOf(await flagAt(r.w.tx, target.name, target.at), target.name, target.project);
  // The lock every flag write takes first: the plan below compares with what a concurrent
  // write (another restore, say) committed, not with what it is about to change.
  await lockFeatureRows(r.w.tx, [target.name]);
  const current = await currentState(r.w.tx, target.name);
  if (!current)
    throw new ConflictError(`Flag "${target.name}" was deleted; a deleted flag cannot be restored.`);
  const wanted = (e: { name: string }) => !target.environments || target.environments.includes(e.name);
  const pastEnvironments = past.environments.filter(wanted);
  await missingReferences(r.w.tx, [{ ...past, environments: pastEnvironments }], target.project, true);
  const result: RestoreResult = { changeRequests: [], events: 0, skipped: [] };
  if (past.archived && current.archived) {
    result.skipped.push({ feature: target.name, reason: "archived then and now" });
    return result;
  }
  if (current.archived) {
    requireCan(r.principal, PERMISSIONS.UPDATE_FEATURE, target.project);
    await reviveFeatures(r.w, target.project, [target.name]);
  }
  const now = (await currentState(r.w.tx, target.name)) as FlagState;
  await restoreFlagLevel(r, past, now);
  for (const environment of pastEnvironments) {
    const present =
      now.environments.find((e) => e.name === environment.name) ?? EMPTY_ENVIRONMENT(environment.name);
    const proposed = await applyInEnvironment(
      r,
      target.project,
      environment.name,
      environmentPlan(target.name, environment, present),
    );
    if (proposed) result.changeRequests.push(proposed);
  }
  if (past.archived) {
    requireCan(r.principal, PERMISSIONS.DELETE_FEATURE, target.project);
    await assertDirectProjectChangeAllowed(r.w, r.principal, target.project);
    await archiveFeatures(r.w, target.project, [target.name]);
  }
  result.events = r.w.recorded.length;
  return result;
}

/**
 * Makes every flag of `project` in `environment` what it was there at `at` (on/off, strategies,
 * variants; flag-level fields are left alone), as ordinary changes; where the environment
 * requires change requests, all of them go into one Draft. Flags created after `at` are left
 * alone; deleted or archived ones (then or now) are skipped and listed. Refuses as `restoreFeature` does.
 */
export async function restoreEnvironment(
  r: Restorer,
  target: { project: string; environment: string; at: Date },
): Promise<RestoreResult> {
  const flags = await environmentAt(r.w.tx, target.project, target.environment, target.at);
  // As in restoreFeature: plan against committed states (all rows locked at once, in name order).
  await lockFeatureRows(
    r.w.tx,
    flags.map((flag) => flag.name),
  );
  const result: RestoreResult = { changeRequests: [], events: 0, skipped: [] };
  const plan: PlannedChange[] = [];
  const pasts: FlagState[] = [];
  for (const flag of flags) {
    const current = await currentState(r.w.tx, flag.name);
    const reason = !flag.exact
      ? `history exact only since ${flag.exactSince?.toISOString()}`
      : !current
        ? "deleted"
        : flag.state?.archived || current.archived
          ? "archived"
          : null;
    if (reason || !flag.state || !current) {
      result.skipped.push({ feature: flag.name, reason: reason ?? "" });
      continue;
    }
    pasts.push(flag.state);
    const past = flag.state.environments[0] ?? EMPTY_ENVIRONMENT(target.environment);
    const present =
      current.environments.find((e) => e.name === target.environment) ??
      EMPTY_ENVIRONMENT(target.environment);
    plan.push(...environmentPlan(flag.name, past, present));
  }
  await missingReferences(r.w.tx, pasts, target.project, false);
  const proposed = await applyInEnvironment(r, target.project, target.environment, plan);
  if (proposed) result.changeRequests.push(proposed);
  result.events = r.w.recorded.length;
  return result;
}
