import type { ResourceLimits } from "../../config.ts";
import { recordEvent } from "../../events/record.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { InvalidOperationError, NoAccessError, NotFoundError, ValidationError } from "../../shared/errors.ts";
import { sqlOf } from "../../shared/sql.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { can } from "../access/grant-check.logic.ts";
import type { Principal } from "../access/principal.types.ts";
import { featureEnvironment } from "../feature-environments/feature-lock.read.ts";
import { changeRequestSetting } from "../feature-environments/guards.read.ts";
import { strategyById } from "../feature-environments/strategy.read.ts";
import { featureInProject } from "../features/feature.read.ts";
import { segmentOrNull } from "../segments/segment.read.ts";
import { applierOf, PROPOSE_PERMISSION } from "./appliers.write.ts";
import {
  type ChangeAction,
  changesSchema,
  PAYLOAD_SCHEMAS,
  SEGMENT_ACTIONS,
} from "./change-request.inputs.ts";
import { type ChangeTarget, takeSnapshot } from "./snapshots.read.ts";
import { authorOf, inChangeRequest, proposedPayload, recordChangeRequestEvent } from "./store.write.ts";

export type ProposedChange = { action: ChangeAction; feature: string | null; payload: unknown };
type Scope = { project: string; environment: string };

/**
 * Checks one proposed change as the direct change would be checked: the payload's shape, the
 * caller's permission for that kind of change, and that its flag, strategy or segment exists.
 * Returns the normalised change.
 */
export async function checkChange(
  w: Write,
  principal: Principal,
  scope: Scope,
  raw: { action: ChangeAction; feature?: string | null; payload?: unknown },
  index: number,
): Promise<ProposedChange> {
  const isSegment = SEGMENT_ACTIONS.has(raw.action);
  if (!isSegment && !raw.feature) {
    throw new ValidationError(`${raw.action} needs a "feature"`, [
      { message: "required", path: `${index}.feature` },
    ]);
  }
  if (isSegment && raw.feature) {
    throw new ValidationError(`${raw.action} takes no "feature"`, [
      { message: "not allowed", path: `${index}.feature` },
    ]);
  }
  const payload = parseInput(PAYLOAD_SCHEMAS[raw.action], raw.payload) ?? null;
  const permission = PROPOSE_PERMISSION[raw.action];
  if (!can(principal, { permission, project: scope.project, environment: scope.environment })) {
    throw new NoAccessError(permission, scope.environment);
  }
  const feature = isSegment ? null : (raw.feature as string);
  if (feature) {
    await featureInProject(w.tx, scope.project, feature);
    await featureEnvironment(w.tx, feature, scope.environment);
  }
  await checkReferences(w, raw.action, { ...scope, feature }, payload);
  return { action: raw.action, feature, payload };
}

/** The strategy or segment a change names must exist where the change applies. */
async function checkReferences(w: Write, action: ChangeAction, target: ChangeTarget, payload: unknown) {
  const p = payload as Record<string, unknown> & { id?: unknown };
  const strategyIds =
    action === "updateStrategy" || action === "deleteStrategy"
      ? [String(p.id)]
      : action === "reorderStrategy"
        ? (payload as { id: string }[]).map((x) => x.id)
        : [];
  for (const id of strategyIds) {
    const s = await strategyById(w.tx, id);
    if (!s || s.featureName !== target.feature || s.environmentName !== target.environment) {
      throw new NotFoundError(
        `Could not find strategy "${id}" of flag "${target.feature}" in "${target.environment}"`,
      );
    }
  }
  if (SEGMENT_ACTIONS.has(action)) {
    const segment = await segmentOrNull(w.tx, Number(p.id));
    if (!segment || (segment.projectId && segment.projectId !== target.project)) {
      throw new NotFoundError(`Could not find segment ${p.id} in project "${target.project}"`);
    }
  }
  if (action === "addDependency") await featureInProject(w.tx, target.project, String(p.feature));
  await w.changeKinds[action]?.checkReferences(w.tx, target, payload);
}

/**
 * Runs the changes through their services in a savepoint that is then rolled back, so a
 * change the service would refuse (bad constraint, limit, ...) is refused now, as a direct
 * change would be, and nothing of the trial stays.
 */
export async function dryRun(w: Write, scope: Scope, changes: ProposedChange[], limits: ResourceLimits) {
  const probe: Write = { ...w, recorded: [], groupType: "change-request", groupId: "dry-run" };
  await sqlOf(w.tx).execute`SAVEPOINT change_request_dry_run`;
  try {
    for (const c of changes)
      await applierOf(probe, c.action)(probe, { ...scope, feature: c.feature }, c.payload, limits);
  } finally {
    await sqlOf(w.tx).execute`ROLLBACK TO SAVEPOINT change_request_dry_run`;
  }
}

/** The caller's Draft for (project, environment), created when there is none. */
async function draftOf(w: Write, scope: Scope) {
  const setting = await changeRequestSetting(w.tx, scope.project, scope.environment);
  if (!setting) {
    throw new InvalidOperationError(
      `Change requests are not enabled for the "${scope.environment}" environment of project "${scope.project}"`,
    );
  }
  const author = authorOf(w.actor);
  const existing = await w.tx.changeRequest.findFirst({
    where: { projectId: scope.project, environmentName: scope.environment, ...author, state: "Draft" },
    orderBy: { id: "asc" },
  });
  if (existing) return existing;
  const created = await w.tx.changeRequest.create({
    data: {
      projectId: scope.project,
      environmentName: scope.environment,
      state: "Draft",
      minApprovals: setting.requiredApprovals,
      ...author,
      createdAt: w.now,
      updatedAt: w.now,
    },
  });
  await recordChangeRequestEvent(w, "change-request-created", created);
  return created;
}

/**
 * Spec 4.5: adds one change or several to the caller's Draft change request for the
 * environment, creating the Draft when there is none. Events: change-request-created (new
 * Draft), change-added per change. Returns the change request id.
 */
export async function proposeChanges(
  w: Write,
  principal: Principal,
  scope: Scope,
  body: unknown,
  limits: ResourceLimits,
): Promise<number> {
  const link = await w.tx.projectEnvironment.findUnique({
    where: { projectId_environmentName: { projectId: scope.project, environmentName: scope.environment } },
  });
  if (!link)
    throw new NotFoundError(
      `Environment "${scope.environment}" is not enabled for project "${scope.project}"`,
    );
  const raw = parseInput(changesSchema, body);
  const changes: ProposedChange[] = [];
  for (const [i, c] of raw.entries()) changes.push(await checkChange(w, principal, scope, c, i));
  await dryRun(w, scope, changes, limits);
  const cr = await draftOf(w, scope);
  for (const change of changes) await storeChange(w, cr, change);
  return cr.id;
}

/** Stores one checked change in the request, with its snapshot (change-added). */
export async function storeChange(
  w: Write,
  cr: { id: number; projectId: string; environmentName: string },
  change: ProposedChange,
) {
  const target = { project: cr.projectId, environment: cr.environmentName, feature: change.feature };
  const snapshot = await takeSnapshot(w.tx, change.action, target, change.payload, w.changeKinds);
  const row = await w.tx.changeRequestChange.create({
    data: {
      changeRequestId: cr.id,
      featureName: change.feature,
      action: change.action,
      payload: (change.payload ?? {}) as Prisma.InputJsonValue,
      snapshot: (snapshot ?? undefined) as Prisma.InputJsonValue | undefined,
      createdByUserId: w.actor.userId ?? 0,
      createdAt: w.now,
    },
  });
  const place = inChangeRequest(cr);
  await recordEvent(w, {
    type: "change-added",
    ...place,
    featureName: change.feature,
    data: {
      ...place.data,
      changeId: row.id,
      action: change.action,
      payload: proposedPayload(change.payload),
    },
  });
}
