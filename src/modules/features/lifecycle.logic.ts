/** Lifecycle stages (spec 3.3), in precedence order for "the current stage" of a flag. */
export const LIFECYCLE_STAGES = ["initial", "pre-live", "live", "completed", "archived"] as const;
export type LifecycleStage = (typeof LIFECYCLE_STAGES)[number];

type StageRow = { stage: string; status: string | null; createdAt: Date };

/**
 * The stage shown on a flag: archived if archived, else the highest-precedence stage entered
 * (completed > live > pre-live > initial), as Unleash's feature read model does.
 */
export function currentLifecycleStage(rows: StageRow[], archivedAt: Date | null) {
  const archivedRow = rows.find((r) => r.stage === "archived");
  if (archivedAt)
    return { stage: "archived", status: null, enteredStageAt: archivedRow?.createdAt ?? archivedAt };
  const best = [...rows]
    .filter((r) => r.stage !== "archived")
    .sort(
      (a, b) =>
        LIFECYCLE_STAGES.indexOf(b.stage as LifecycleStage) -
        LIFECYCLE_STAGES.indexOf(a.stage as LifecycleStage),
    )[0];
  return best ? { stage: best.stage, status: best.status, enteredStageAt: best.createdAt } : null;
}
