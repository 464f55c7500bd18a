import { recordEvent } from "../../events/record.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { lockFeature } from "../feature-environments/feature-lock.read.ts";
import { type CompleteFeatureInput, completeFeatureSchema } from "./feature.inputs.ts";

/**
 * Moves a flag to lifecycle stage `completed` with status kept/discarded (and, for kept, the
 * value kept). Records `feature-completed` with `{status, statusValue?, kept}`; completing
 * again with the same status records nothing. Throws NotFound, ArchivedFeature, Validation.
 */
export async function completeFeature(
  w: Write,
  projectId: string,
  name: string,
  input: CompleteFeatureInput,
) {
  const data = parseInput(completeFeatureSchema, input);
  const feature = await lockFeature(w.tx, projectId, name);
  const statusValue = data.statusValue ?? null;
  const key = { featureName_stage: { featureName: name, stage: "completed" } };
  const existing = await w.tx.featureLifecycle.findUnique({ where: key });
  if (existing && existing.status === data.status && existing.statusValue === statusValue) return feature;
  await w.tx.featureLifecycle.upsert({
    where: key,
    create: { featureName: name, stage: "completed", status: data.status, statusValue, createdAt: w.now },
    update: { status: data.status, statusValue },
  });
  await recordEvent(w, {
    type: "feature-completed",
    project: projectId,
    featureName: name,
    data: {
      status: data.status,
      ...(statusValue === null ? {} : { statusValue }),
      kept: data.status === "kept",
    },
  });
  return feature;
}

/**
 * Takes a flag out of stage `completed` (its row is deleted, the previous stage shows again)
 * and records `feature-uncompleted`; a flag that is not completed records nothing.
 */
export async function uncompleteFeature(w: Write, projectId: string, name: string) {
  const feature = await lockFeature(w.tx, projectId, name);
  const removed = await w.tx.featureLifecycle.deleteMany({
    where: { featureName: name, stage: "completed" },
  });
  if (removed.count > 0) {
    await recordEvent(w, { type: "feature-uncompleted", project: projectId, featureName: name });
  }
  return feature;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The potentially-stale job (reference §7.3): an active, non-stale flag whose age exceeds its
 * type's lifetime becomes potentially stale and records `feature-potentially-stale-on` (actor:
 * the caller's Write, the system when run as the job). Flags no longer past their lifetime
 * (type changed) lose the mark silently. Returns the names newly marked.
 */
export async function markPotentiallyStaleFlags(w: Write, now: Date) {
  const candidates = await w.tx.feature.findMany({
    where: { archivedAt: null },
    select: {
      name: true,
      projectId: true,
      createdAt: true,
      stale: true,
      potentiallyStale: true,
      featureType: { select: { lifetimeDays: true } },
    },
    orderBy: [{ createdAt: "asc" }, { name: "asc" }],
  });
  const pastLifetime = (f: (typeof candidates)[number]) => {
    const days = f.featureType.lifetimeDays;
    return days !== null && now.getTime() > f.createdAt.getTime() + days * DAY_MS;
  };
  const newlyMarked = candidates.filter((f) => !f.stale && !f.potentiallyStale && pastLifetime(f));
  const unmarked = candidates.filter((f) => f.potentiallyStale && !pastLifetime(f));
  if (unmarked.length > 0) {
    await w.tx.feature.updateMany({
      where: { name: { in: unmarked.map((f) => f.name) } },
      data: { potentiallyStale: false },
    });
  }
  for (const feature of newlyMarked) {
    await w.tx.feature.update({ where: { name: feature.name }, data: { potentiallyStale: true } });
    await recordEvent(w, {
      type: "feature-potentially-stale-on",
      project: feature.projectId,
      featureName: feature.name,
    });
  }
  return newlyMarked.map((f) => f.name);
}
