import type { Db, Tx } from "../../db/database.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { sqlOf } from "../../shared/sql.ts";
import type { ClientSegment } from "../evaluation/client-features.types.ts";

/** One segment by id, or 404 with Unleash's message. */
export async function segmentById(tx: Tx, id: number) {
  const segment = await tx.segment.findUnique({ where: { id } });
  if (!segment) throw new NotFoundError(`Could not find segment with id ${id}`);
  return segment;
}

/** One segment by id, or null. */
export function segmentOrNull(tx: Tx, id: number) {
  return tx.segment.findUnique({ where: { id } });
}

/** The segments named in `names`. */
export function segmentsNamed(tx: Tx, names: string[]) {
  return tx.segment.findMany({ where: { name: { in: names } } });
}

/** The ids among `ids` of segments that exist. */
export async function existingSegmentIds(tx: Tx, ids: number[]): Promise<number[]> {
  return (await tx.segment.findMany({ where: { id: { in: ids } } })).map((s) => s.id);
}

/** The segments `ids` as SDKs get them, in id order. Raw: part of every SDK document's read (D-09). */
export function sdkSegments(db: Db, ids: number[]): Promise<ClientSegment[]> {
  return sqlOf(db).query<ClientSegment>`
    SELECT id, name, constraints FROM "Segment" WHERE id = ANY(${ids}::int[]) ORDER BY id`;
}

/** How many segments belong to project `projectId` (all segments without one). */
export function segmentCount(db: Db, projectId?: string) {
  return db.segment.count(projectId === undefined ? undefined : { where: { projectId } });
}
