import type { Db, Tx } from "../../db/database.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { sqlOf } from "../../shared/sql.ts";
import { SEGMENT_IDS } from "./strategy-record.read.ts";

type StrategyQuery = { include?: Prisma.FeatureStrategyInclude; select?: Prisma.FeatureStrategySelect };

/** Strategies in the order lists show them: by flag, environment, then their own order. */
const STRATEGY_ORDER: Prisma.FeatureStrategyOrderByWithRelationInput[] = [
  { featureName: "asc" },
  { environmentName: "asc" },
  { sortOrder: "asc" },
  { id: "asc" },
];

/** The strategy `id`, or null. */
export function strategyById(db: Db | Tx, id: string) {
  return db.featureStrategy.findUnique({ where: { id } });
}

/** The strategy `id` as a Pothos field's `query` asks for it. */
export function strategyForQuery(db: Db | Tx, query: StrategyQuery, id: string) {
  return db.featureStrategy.findUniqueOrThrow({ ...query, where: { id } });
}

/** The strategies using segment `segmentId`, as `query` asks for them, in list order. */
export function strategiesUsingSegment(db: Db | Tx, query: StrategyQuery, segmentId: number) {
  return db.featureStrategy.findMany({
    ...query,
    where: { segments: { some: { segmentId } } },
    orderBy: STRATEGY_ORDER,
  });
}

/** The strategies (of `projectId`, when given) with a constraint on `contextField`, in list order. */
export function strategiesConstraining(
  db: Db | Tx,
  query: StrategyQuery,
  contextField: string,
  projectId: string | null | undefined,
) {
  return db.featureStrategy.findMany({
    ...query,
    where: {
      constraints: { array_contains: [{ contextName: contextField }] },
      ...(projectId ? { projectId } : {}),
    },
    orderBy: STRATEGY_ORDER,
  });
}

/** The strategy `id` with its segments' ids (ascending), or null. */
export function strategyWithSegments(tx: Db | Tx, id: string) {
  return tx.featureStrategy.findUnique({ where: { id }, include: { segments: SEGMENT_IDS } });
}

/** The variants of each strategy of flag `featureName`, every environment. */
export function strategyVariantsOfFlag(db: Db | Tx, featureName: string) {
  return db.featureStrategy.findMany({ where: { featureName }, select: { variants: true } });
}

/** Whether each strategy of flag `featureName` in `environmentName` is disabled (no order). */
export function strategiesDisabledIn(db: Db | Tx, featureName: string, environmentName: string) {
  return db.featureStrategy.findMany({ where: { featureName, environmentName }, select: { disabled: true } });
}

/**
 * Over the strategies of active flags: the most strategies of a flag in one environment, and the
 * most constraints of a strategy and values of a constraint.
 */
export async function strategyMaxima(db: Db) {
  const [maxima] = await sqlOf(db).query<{
    strategies: number;
    constraints: number;
    constraintValues: number;
  }>`
    WITH active AS (
      SELECT s.* FROM "FeatureStrategy" s JOIN "Feature" f ON f.name = s."featureName" WHERE f."archivedAt" IS NULL
    )
    SELECT
      (SELECT COALESCE(MAX(n), 0)::int FROM (SELECT count(*) AS n FROM active GROUP BY "featureName", "environmentName") x) AS strategies,
      (SELECT COALESCE(MAX(jsonb_array_length(constraints)), 0)::int FROM active WHERE jsonb_typeof(constraints) = 'array') AS constraints,
      (SELECT COALESCE(MAX(jsonb_array_length(c->'values')), 0)::int
         FROM active, jsonb_array_elements(CASE WHEN jsonb_typeof(constraints) = 'array' THEN constraints ELSE '[]'::jsonb END) c
         WHERE jsonb_typeof(c->'values') = 'array') AS "constraintValues"`;
  return maxima;
}
