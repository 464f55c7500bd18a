import type { Tx } from "../../db/database.ts";
import { LimitExceededError, NotFoundError, ValidationError } from "../../shared/errors.ts";

/** One segment by id, or 404 with Unleash's message. */
export async function segmentById(tx: Tx, id: number) {
  const segment = await tx.segment.findUnique({ where: { id } });
  if (!segment) throw new NotFoundError(`Could not find segment with id ${id}`);
  return segment;
}

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
