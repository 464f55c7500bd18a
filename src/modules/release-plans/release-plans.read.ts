import type { Db, Tx } from "../../db/database.ts";
import type {
  ReleasePlan as PlanRow,
  ReleasePlanTemplate as TemplateRow,
} from "../../generated/prisma/client.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { sqlOf } from "../../shared/sql.ts";
import type { Milestone, PlanState, ReleasePlan, ReleaseTemplate, Safeguard } from "./release-plan.types.ts";

/** A stored template as this module reads it (its JSON was written from its own types). */
export function templateOf(row: TemplateRow): ReleaseTemplate {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    milestones: row.milestones as Milestone[],
    createdAt: row.createdAt,
    archivedAt: row.archivedAt,
  };
}

export function planOf(row: PlanRow): ReleasePlan {
  return {
    id: row.id,
    templateId: row.templateId,
    name: row.name,
    featureName: row.featureName,
    projectId: row.projectId,
    environment: row.environment,
    milestones: row.milestones as Milestone[],
    safeguards: row.safeguards as Safeguard[],
    activeIndex: row.activeIndex,
    milestoneStartedAt: row.milestoneStartedAt,
    state: row.state as PlanState,
    pausedAt: row.pausedAt,
    pauseReason: row.pauseReason,
    stepChangeRequestId: row.stepChangeRequestId,
    version: row.version,
    createdAt: row.createdAt,
  };
}

/** Templates by name (archived ones only when asked). */
export async function templates(db: Db, includeArchived: boolean): Promise<ReleaseTemplate[]> {
  const rows = await db.releasePlanTemplate.findMany({
    where: includeArchived ? {} : { archivedAt: null },
    orderBy: { name: "asc" },
  });
  return rows.map(templateOf);
}

export async function templatesById(db: Db | Tx, ids: string[]): Promise<(ReleaseTemplate | null)[]> {
  const rows = await db.releasePlanTemplate.findMany({ where: { id: { in: ids } } });
  const byId = new Map(rows.map((r) => [r.id, templateOf(r)]));
  return ids.map((id) => byId.get(id) ?? null);
}

export async function plansById(db: Db | Tx, ids: string[]): Promise<(ReleasePlan | null)[]> {
  const rows = await db.releasePlan.findMany({ where: { id: { in: ids } } });
  const byId = new Map(rows.map((r) => [r.id, planOf(r)]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** The plan of a flag in an environment, or null. */
export async function planOfFlag(
  db: Db | Tx,
  feature: string,
  environment: string,
): Promise<ReleasePlan | null> {
  const row = await db.releasePlan.findUnique({
    where: { featureName_environment: { featureName: feature, environment } },
  });
  return row ? planOf(row) : null;
}

/** The plans of a flag, by environment. */
export async function plansOfFlag(db: Db, feature: string): Promise<ReleasePlan[]> {
  const rows = await db.releasePlan.findMany({
    where: { featureName: feature },
    orderBy: { environment: "asc" },
  });
  return rows.map(planOf);
}

/**
 * The template, locked until the transaction ends, or 404: `share` to make a plan from it (an
 * edit or a deletion waits), `update` to edit or delete it (a plan being made from it finishes first).
 */
export async function lockTemplate(tx: Tx, id: string, mode: "share" | "update"): Promise<ReleaseTemplate> {
  const [row] =
    mode === "share"
      ? await sqlOf(tx).query<TemplateRow>`SELECT * FROM "ReleasePlanTemplate" WHERE id = ${id} FOR SHARE`
      : await sqlOf(tx).query<TemplateRow>`SELECT * FROM "ReleasePlanTemplate" WHERE id = ${id} FOR UPDATE`;
  if (!row) throw new NotFoundError(`Could not find release template ${id}`);
  return templateOf(row);
}

/** The plan, locked until the transaction ends (every change of a plan starts here), or 404. */
export async function lockPlan(tx: Tx, id: string): Promise<ReleasePlan> {
  const [row] = await sqlOf(tx).query<PlanRow>`SELECT * FROM "ReleasePlan" WHERE id = ${id} FOR UPDATE`;
  if (!row) throw new NotFoundError(`Could not find release plan ${id}`);
  return planOf(row);
}

/**
 * The next running plan after `afterId` that no other node is evaluating, locked until the
 * transaction ends (`SKIP LOCKED`: several nodes share the plans, each plan is evaluated by one
 * at a time; a plan another node just paused is no longer `active` once it commits).
 */
export async function claimRunningPlan(tx: Tx, afterId: string): Promise<ReleasePlan | null> {
  const [row] = await sqlOf(tx).query<PlanRow>`
    SELECT * FROM "ReleasePlan"
    WHERE state = 'active' AND "activeIndex" IS NOT NULL AND id > ${afterId}
    ORDER BY id LIMIT 1
    FOR UPDATE SKIP LOCKED`;
  return row ? planOf(row) : null;
}
