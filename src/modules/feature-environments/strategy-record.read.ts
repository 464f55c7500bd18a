import type { Tx } from "../../db/database.ts";
import type { StrategyPayload } from "../../events/payloads.ts";
import { NotFoundError } from "../../shared/errors.ts";
import type { Write } from "../../shared/write.ts";
import { lockFeatureIn } from "./feature-lock.read.ts";
import type { Constraint, StrategyVariant } from "./strategy.types.ts";

/** Where a per-environment change applies: `/projects/:project/features/:feature/environments/:environment`. */
export type EnvironmentTarget = { project: string; feature: string; environment: string };

/** The flag (in the project, not archived) and its state in the environment, or the Unleash 404/400. */
export function loadTarget(w: Write, target: EnvironmentTarget) {
  return lockFeatureIn(w.tx, target.project, target.feature, target.environment);
}

/** How a strategy's segments are read with it: their ids, ascending. */
export const SEGMENT_IDS = { select: { segmentId: true }, orderBy: { segmentId: "asc" as const } };
const withSegments = { segments: SEGMENT_IDS };

export type StoredStrategy = Awaited<ReturnType<typeof strategiesOf>>[number];

/** The strategies of a flag in one environment, in evaluation order. */
export function strategiesOf(tx: Tx, featureName: string, environmentName: string) {
  return tx.featureStrategy.findMany({
    where: { featureName, environmentName },
    include: withSegments,
    orderBy: [{ sortOrder: "asc" }, { createdAt: "asc" }, { id: "asc" }],
  });
}

/** One strategy of the flag in the environment, or 404. */
export async function strategyIn(tx: Tx, target: EnvironmentTarget, id: string) {
  const row = await tx.featureStrategy.findUnique({ where: { id }, include: withSegments });
  if (!row || row.featureName !== target.feature || row.environmentName !== target.environment) {
    throw new NotFoundError(`Could not find strategy with id ${id}`);
  }
  return row;
}

/**
 * The strategy as events carry it (reference-behaviours §3.2): the row without where it is and
 * who made it, under the record's names. A column added for the record is carried as it is; one
 * that is not the record's must be left out here (the record's strict schema and
 * test/flags/read-model.test.ts refuse a payload that carries it).
 */
export function strategyRecord(s: StoredStrategy): StrategyPayload {
  const {
    featureName,
    projectId,
    environmentName,
    createdAt,
    createdByUserId,
    strategyName,
    constraints,
    parameters,
    variants,
    segments,
    ...asStored
  } = s;
  return {
    ...asStored,
    name: strategyName,
    constraints: constraints as Constraint[],
    parameters: parameters as Record<string, string>,
    variants: variants as StrategyVariant[],
    segments: segments.map((x) => x.segmentId),
  };
}
