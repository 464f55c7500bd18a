import { isDeepStrictEqual } from "node:util";
import type { Tx } from "../../db/database.ts";
import type { ChangeKinds, ChangeTarget } from "../../shared/change-kinds.ts";
import { featureEnvironmentOf } from "../feature-environments/feature-environment.read.ts";
import { strategyWithSegments } from "../feature-environments/strategy.read.ts";
import { featureWithName } from "../features/feature.read.ts";
import { segmentOrNull } from "../segments/segment.read.ts";
import type { ChangeAction } from "./change-request.inputs.ts";

export type { ChangeTarget } from "../../shared/change-kinds.ts";

type Payload = Record<string, unknown>;

/** What a strategy is, for comparison (its position is left out: reordering is not editing it). */
async function strategyState(tx: Tx, id: string) {
  const s = await strategyWithSegments(tx, id);
  if (!s) return null;
  return {
    name: s.strategyName,
    title: s.title,
    disabled: s.disabled,
    parameters: s.parameters,
    constraints: s.constraints,
    variants: s.variants,
    segments: s.segments.map((x) => x.segmentId),
  };
}

async function segmentState(tx: Tx, id: number) {
  const s = await segmentOrNull(tx, id);
  if (!s) return null;
  return { name: s.name, description: s.description, project: s.projectId, constraints: s.constraints };
}

async function variantsState(tx: Tx, target: ChangeTarget) {
  if (!target.feature) return null;
  const env = await featureEnvironmentOf(tx, target.feature, target.environment);
  return env ? env.variants : null;
}

/**
 * The object an update/delete change overwrites, as it is now. Stored with the change, it
 * tells later whether someone changed the object in between (reference-behaviours §6.4). The
 * kinds of modules above this one take their own (`kinds`).
 */
export async function takeSnapshot(
  tx: Tx,
  action: ChangeAction,
  target: ChangeTarget,
  payload: unknown,
  kinds: ChangeKinds,
): Promise<unknown> {
  const p = (payload ?? {}) as Payload;
  switch (action) {
    case "updateStrategy":
    case "deleteStrategy":
      return strategyState(tx, String(p.id));
    case "updateSegment":
    case "deleteSegment":
      return segmentState(tx, Number(p.id));
    case "patchVariant":
      return variantsState(tx, target);
    default:
      return (await kinds[action]?.snapshot(tx, target, payload)) ?? null;
  }
}

/** Why a recorded change can no longer be applied as it was made, or null when it can. */
export async function findConflict(
  tx: Tx,
  action: ChangeAction,
  target: ChangeTarget,
  payload: unknown,
  snapshot: unknown,
  kinds: ChangeKinds,
): Promise<string | null> {
  const p = (payload ?? {}) as Payload;
  if (target.feature) {
    const flag = await featureWithName(tx, target.feature);
    if (!flag) return `The flag "${target.feature}" no longer exists.`;
    if (flag.archivedAt) return `The flag "${target.feature}" has been archived.`;
  }
  switch (action) {
    case "updateStrategy":
    case "deleteStrategy": {
      const now = await strategyState(tx, String(p.id));
      if (!now) return `The strategy "${p.id}" has been deleted.`;
      return changedSince(snapshot, now, "strategy");
    }
    case "reorderStrategy": {
      for (const item of p as unknown as { id: string }[]) {
        if (!(await strategyState(tx, item.id))) return `The strategy "${item.id}" has been deleted.`;
      }
      return null;
    }
    case "updateSegment":
    case "deleteSegment": {
      const now = await segmentState(tx, Number(p.id));
      if (!now) return `The segment ${p.id} has been deleted.`;
      return changedSince(snapshot, now, "segment");
    }
    case "patchVariant":
      return changedSince(snapshot, await variantsState(tx, target), "variants");
    case "addDependency": {
      const parent = await featureWithName(tx, String(p.feature));
      if (!parent) return `The parent flag "${p.feature}" no longer exists.`;
      if (parent.archivedAt) return `The parent flag "${p.feature}" has been archived.`;
      return null;
    }
    default:
      return (await kinds[action]?.conflict(tx, target, payload, snapshot)) ?? null;
  }
}

function changedSince(snapshot: unknown, now: unknown, what: string): string | null {
  if (snapshot === null || snapshot === undefined) return null;
  return isDeepStrictEqual(JSON.parse(JSON.stringify(snapshot)), JSON.parse(JSON.stringify(now)))
    ? null
    : `The ${what} has been changed since this change was made; applying it would overwrite newer changes.`;
}
