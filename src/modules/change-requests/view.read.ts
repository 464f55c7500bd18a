import type { Db, Tx } from "../../db/database.ts";
import type { ChangeKinds } from "../../shared/change-kinds.ts";
import { strategiesDisabledIn } from "../feature-environments/strategy.read.ts";
import { segmentOrNull } from "../segments/segment.read.ts";
import { usersWithIds } from "../users/user.read.ts";
import { CLOSED_STATES, OPEN_STATES } from "./change-request-states.types.ts";
import { type ChangeConflict, conflictsOf } from "./conflicts.read.ts";

/** A user as change requests show them (spec 2.11 `createdBy`). */
export type CrUser = { id: number; username: string | null; imageUrl: string | null };
export type ChangeItem = {
  id: number;
  action: string;
  conflict: string | null;
  payload: unknown;
  createdBy: CrUser;
  createdAt: Date;
};
export type FeatureGroup = {
  name: string;
  /** The request it belongs to, and whether it was applied (what it changed is in the log). */
  changeRequest: { id: number; project: string; applied: boolean };
  conflict: string | null;
  changes: ChangeItem[];
  defaultChange: { action: string; payload: unknown } | null;
};
export type ChangeRequestView = {
  id: number;
  title: string;
  project: string;
  environment: string;
  minApprovals: number;
  state: string;
  createdBy: CrUser;
  createdAt: Date;
  features: FeatureGroup[];
  segments: (ChangeItem & { name: string })[];
  approvals: { createdBy: CrUser; createdAt: Date }[];
  rejections: { createdBy: CrUser; createdAt: Date }[];
  comments: { id: number; text: string; createdBy: CrUser; createdAt: Date }[];
  schedule: {
    status: string;
    scheduledAt: Date;
    reason: string | null;
    failureReason: string | null;
  } | null;
};

const include = {
  changes: { orderBy: { id: "asc" as const } },
  approvals: { orderBy: { createdAt: "asc" as const } },
  rejections: { orderBy: { createdAt: "asc" as const } },
  comments: { orderBy: { id: "asc" as const } },
  schedule: true,
};
type Loaded = Awaited<ReturnType<typeof load>>[number];

function load(tx: Tx, ids: number[]) {
  return tx.changeRequest.findMany({ where: { id: { in: ids } }, include });
}

/**
 * Spec 2.11 views of the given change requests, in the order of `ids` (missing ones left out);
 * `kinds` tell the conflicts of the change kinds of modules above this one.
 */
export async function changeRequestViews(
  tx: Tx,
  ids: number[],
  kinds: ChangeKinds,
): Promise<ChangeRequestView[]> {
  if (ids.length === 0) return [];
  const rows = await load(tx, ids);
  const users = await usersOf(tx, rows);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const views: ChangeRequestView[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (row) views.push(await viewOf(tx, row, users, kinds));
  }
  return views;
}

export async function changeRequestView(
  tx: Tx,
  id: number,
  kinds: ChangeKinds,
): Promise<ChangeRequestView | null> {
  return (await changeRequestViews(tx, [id], kinds))[0] ?? null;
}

async function usersOf(tx: Tx, rows: Loaded[]): Promise<Map<number, CrUser>> {
  const ids = new Set<number>();
  for (const r of rows) {
    ids.add(r.createdByUserId);
    for (const c of r.changes) ids.add(c.createdByUserId);
    for (const a of [...r.approvals, ...r.rejections]) ids.add(a.userId);
    for (const c of r.comments) ids.add(c.userId);
  }
  const found = await usersWithIds(
    tx,
    [...ids].filter((i) => i > 0),
  );
  return new Map(
    found.map((u) => [u.id, { id: u.id, username: u.username ?? u.email ?? u.name, imageUrl: u.imageUrl }]),
  );
}

async function viewOf(
  tx: Tx,
  row: Loaded,
  users: Map<number, CrUser>,
  kinds: ChangeKinds,
): Promise<ChangeRequestView> {
  const user = (id: number): CrUser => users.get(id) ?? { id, username: null, imageUrl: null };
  const isOpen = !(CLOSED_STATES as readonly string[]).includes(row.state);
  const conflicts = isOpen ? await conflictsOf(tx, row, kinds) : [];
  const conflictOf = new Map<number, ChangeConflict>(conflicts.map((c) => [c.changeId, c]));
  const item = (c: Loaded["changes"][number]): ChangeItem => ({
    id: c.id,
    action: c.action,
    conflict: conflictOf.get(c.id)?.conflict ?? null,
    payload: c.payload,
    createdBy: user(c.createdByUserId),
    createdAt: c.createdAt,
  });
  const features = new Map<string, FeatureGroup>();
  const segments: ChangeRequestView["segments"] = [];
  for (const c of row.changes) {
    if (!c.featureName) {
      segments.push({ ...item(c), name: await segmentName(tx, c.payload) });
      continue;
    }
    const group = features.get(c.featureName) ?? {
      name: c.featureName,
      changeRequest: { id: row.id, project: row.projectId, applied: row.state === "Applied" },
      conflict: null,
      changes: [],
      defaultChange: null,
    };
    group.changes.push(item(c));
    group.conflict ??= conflictOf.get(c.id)?.conflict ?? null;
    features.set(c.featureName, group);
  }
  if (isOpen) {
    for (const group of features.values()) group.defaultChange = await defaultChangeOf(tx, row, group);
  }
  return {
    id: row.id,
    title: row.title ?? `Change request #${row.id}`,
    project: row.projectId,
    environment: row.environmentName,
    minApprovals: row.minApprovals,
    state: row.state,
    createdBy: user(row.createdByUserId),
    createdAt: row.createdAt,
    features: [...features.values()],
    segments,
    approvals: row.approvals.map((a) => ({ createdBy: user(a.userId), createdAt: a.createdAt })),
    rejections: row.rejections.map((a) => ({ createdBy: user(a.userId), createdAt: a.createdAt })),
    comments: row.comments.map((c) => ({
      id: c.id,
      text: c.text,
      createdBy: user(c.userId),
      createdAt: c.createdAt,
    })),
    schedule: row.state === "Scheduled" && row.schedule ? scheduleOf(row.schedule) : null,
  };
}

function scheduleOf(s: NonNullable<Loaded["schedule"]>): ChangeRequestView["schedule"] {
  return { status: s.status, scheduledAt: s.scheduledAt, reason: s.reason, failureReason: s.failureReason };
}

async function segmentName(tx: Tx, payload: unknown): Promise<string> {
  const p = (payload ?? {}) as { id?: number; name?: string };
  const segment = p.id ? await segmentOrNull(tx, Number(p.id)) : null;
  return segment?.name ?? p.name ?? `segment ${p.id}`;
}

/**
 * Enabling a flag with no strategy that would apply adds the project's default strategy
 * in the background (reference-behaviours §4 step 6); the request shows it as defaultChange
 * unless the request itself adds a strategy to that flag.
 */
async function defaultChangeOf(
  tx: Tx,
  row: Loaded,
  group: FeatureGroup,
): Promise<FeatureGroup["defaultChange"]> {
  const enabling = group.changes.find(
    (c) => c.action === "updateEnabled" && (c.payload as { enabled?: boolean })?.enabled,
  );
  if (!enabling || group.changes.some((c) => c.action === "addStrategy")) return null;
  if ((enabling.payload as { shouldActivateDisabledStrategies?: boolean }).shouldActivateDisabledStrategies)
    return null;
  const strategies = await strategiesDisabledIn(tx, group.name, row.environmentName);
  if (strategies.some((s) => !s.disabled)) return null;
  const link = await tx.projectEnvironment.findUnique({
    where: { projectId_environmentName: { projectId: row.projectId, environmentName: row.environmentName } },
  });
  const configured = link?.defaultStrategy as Record<string, unknown> | null | undefined;
  const payload = configured
    ? { ...configured, parameters: { ...((configured.parameters as object) ?? {}), groupId: group.name } }
    : {
        name: "flexibleRollout",
        constraints: [],
        parameters: { rollout: "100", stickiness: "default", groupId: group.name },
      };
  return { action: "addStrategy", payload };
}

/** How many change requests are open (not applied, cancelled or rejected) in `environment`. */
export function openChangeRequestCountIn(tx: Db | Tx, environment: string): Promise<number> {
  return tx.changeRequest.count({ where: { environmentName: environment, state: { in: [...OPEN_STATES] } } });
}
