import type { Tx } from "../../db/database.ts";
import { LimitExceededError, ValidationError } from "../../shared/errors.ts";

// The segments a strategy uses are rows of FeatureStrategySegment, which this module owns; the
// check reads Segment (the segments module's table) but belongs to the strategy's write.

/**
 * Checks the segment ids a strategy of `project` attaches: at most `limit` of them, each
 * existing and either global or of the same project. Returns them unique and sorted.
 */
export async function checkStrategySegments(tx: Tx, ids: number[], project: string, limit: number) {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  if (unique.length > limit) throw new LimitExceededError("segments for one strategy", limit);
  if (unique.length === 0) return unique;
  const found = await tx.segment.findMany({ where: { id: { in: unique } } });
  const byId = new Map(found.map((s) => [s.id, s]));
  for (const id of unique) {
    const segment = byId.get(id);
    if (!segment) throw invalid(`segment ${id} does not exist`);
    if (segment.projectId && segment.projectId !== project) {
      throw invalid(`segment ${id} belongs to project "${segment.projectId}", not "${project}"`);
    }
  }
  return unique;
}

function invalid(message: string) {
  return new ValidationError(`segments: ${message}`, [{ path: "segments", message: `segments: ${message}` }]);
}

/** The flags whose strategies use segment `id` (one name per use, unsorted). */
export async function flagsUsingSegment(tx: Tx, id: number): Promise<string[]> {
  const uses = await tx.featureStrategySegment.findMany({
    where: { segmentId: id },
    select: { strategy: { select: { featureName: true } } },
  });
  return uses.map((u) => u.strategy.featureName);
}

/** A project other than `project` one of whose strategies uses segment `id`, or null. */
export async function projectUsingSegmentOutside(
  tx: Tx,
  id: number,
  project: string,
): Promise<string | null> {
  const elsewhere = await tx.featureStrategySegment.findFirst({
    where: { segmentId: id, strategy: { projectId: { not: project } } },
    select: { strategy: { select: { projectId: true } } },
  });
  return elsewhere?.strategy.projectId ?? null;
}
