import type { ResourceLimits } from "../../config.ts";
import type { SegmentPayload } from "../../events/payloads.ts";
import { recordEvent } from "../../events/record.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import {
  ConflictError,
  LimitExceededError,
  NameExistsError,
  NotFoundError,
  ValidationError,
} from "../../shared/errors.ts";
import { lockLimitedResource } from "../../shared/limit-lock.ts";
import { lockRow } from "../../shared/row-lock.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import type { Principal } from "../access/principal.types.ts";
import { normalizeConstraint } from "../feature-environments/constraints.logic.ts";
import { assertSegmentChangeAllowed } from "../feature-environments/guards.read.ts";
import { checkLegalValues } from "../feature-environments/legal-values.read.ts";
import type { ConstraintInput } from "../feature-environments/strategy.inputs.ts";
import type { Constraint } from "../feature-environments/strategy.types.ts";
import {
  flagsUsingSegment,
  projectUsingSegmentOutside,
} from "../feature-environments/strategy-segments.read.ts";
import { type SegmentInput, segmentSchema } from "./segment.inputs.ts";
import { segmentById } from "./segment.read.ts";

type StoredSegment = Awaited<ReturnType<typeof segmentById>>;

/** The segment as its events carry it. */
export function segmentRecord(s: StoredSegment): SegmentPayload {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    project: s.projectId,
    constraints: s.constraints as Constraint[],
    createdAt: s.createdAt.toISOString(),
  };
}

/**
 * Creates a segment, global or of one project. Event: segment-created.
 * Errors: Validation (constraints), NameExists, NotFound (project), LimitExceeded (segments, segmentValues).
 */
export async function createSegment(w: Write, input: SegmentInput, limits: ResourceLimits) {
  const data = parseInput(segmentSchema, input);
  await checkName(w, data.name);
  if (data.project) await checkProject(w, data.project);
  await lockLimitedResource(w.tx, "segment");
  if ((await w.tx.segment.count()) >= limits.segments)
    throw new LimitExceededError("segment", limits.segments);
  const constraints = await segmentConstraints(w, data.constraints, 0, limits.segmentValues);
  const segment = await w.tx.segment.create({
    data: {
      name: data.name,
      description: data.description ?? null,
      projectId: data.project ?? null,
      constraints: constraints as Prisma.InputJsonValue,
      createdAt: w.now,
      createdByUserId: w.actor.userId,
    },
  });
  await recordEvent(w, { type: "segment-created", project: segment.projectId, data: segmentRecord(segment) });
  return segment;
}

/**
 * Replaces a segment's name, description, project and constraints. Event: segment-updated
 * (none when nothing changes). A segment used by strategies of other projects cannot be
 * moved into one project. `by` (the caller; null when a change request applies it) must be
 * allowed to skip change requests where strategies using the segment require them (D-26).
 */
export async function updateSegment(
  w: Write,
  id: number,
  input: SegmentInput,
  limits: ResourceLimits,
  by: Principal | null,
) {
  await lockRow(w.tx, "Segment", id);
  const data = parseInput(segmentSchema, input);
  const before = await segmentById(w.tx, id);
  await assertSegmentChangeAllowed(w, by, id);
  if (data.name !== before.name) await checkName(w, data.name);
  if (data.project) {
    await checkProject(w, data.project);
    await checkUsedOnlyIn(w, id, data.project);
  }
  const stored = before.constraints as Constraint[];
  const constraints = await segmentConstraints(w, data.constraints, valueCount(stored), limits.segmentValues);
  const after = await w.tx.segment.update({
    where: { id },
    data: {
      name: data.name,
      description: data.description ?? null,
      projectId: data.project ?? null,
      constraints: constraints as Prisma.InputJsonValue,
    },
  });
  await recordEvent(w, {
    type: "segment-updated",
    project: after.projectId,
    data: segmentRecord(after),
    preData: segmentRecord(before),
  });
  return after;
}

/** Deletes a segment that no strategy uses (else 409 Conflict). Event: segment-deleted. */
export async function deleteSegment(w: Write, id: number) {
  await lockRow(w.tx, "Segment", id);
  const segment = await segmentById(w.tx, id);
  const uses = await flagsUsingSegment(w.tx, id);
  if (uses.length > 0) {
    const flags = [...new Set(uses)].sort();
    throw new ConflictError(
      `Segment "${segment.name}" is in use by ${uses.length} strategies (flags: ${flags.join(", ")}); remove it from them first.`,
    );
  }
  await w.tx.segment.delete({ where: { id } });
  await recordEvent(w, {
    type: "segment-deleted",
    project: segment.projectId,
    preData: segmentRecord(segment),
  });
  return segment;
}

async function checkName(w: Write, name: string) {
  if (await w.tx.segment.findUnique({ where: { name }, select: { id: true } })) {
    throw new NameExistsError(`There is already a segment named "${name}"`);
  }
}

async function checkProject(w: Write, project: string) {
  if (!(await w.tx.project.findUnique({ where: { id: project }, select: { id: true } }))) {
    throw new NotFoundError(`Could not find project with id "${project}"`);
  }
}

async function checkUsedOnlyIn(w: Write, id: number, project: string) {
  const elsewhere = await projectUsingSegmentOutside(w.tx, id, project);
  if (elsewhere !== null) {
    throw new ValidationError(
      `project: the segment is used by strategies in project "${elsewhere}", so it cannot belong to project "${project}" only`,
      [{ path: "project", message: "segment in use in other projects" }],
    );
  }
}

/**
 * Validates the constraints like a strategy's and enforces `segmentValues` (values across
 * all constraints), grandfathered: a stored segment over the limit may keep its count.
 */
async function segmentConstraints(w: Write, inputs: ConstraintInput[], storedValues: number, limit: number) {
  const constraints = inputs.map((c, i) => normalizeConstraint(c, `constraints.${i}`));
  const count = valueCount(constraints);
  if (count > limit && count > storedValues) throw new LimitExceededError("segment values", limit);
  await checkLegalValues(w.tx, constraints);
  return constraints;
}

function valueCount(constraints: Constraint[]) {
  return constraints.reduce((sum, c) => sum + (c.values?.length ?? 0) + (c.value ? 1 : 0), 0);
}
