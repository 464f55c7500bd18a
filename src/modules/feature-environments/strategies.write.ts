import { randomUUID } from "node:crypto";
import type { ResourceLimits } from "../../config.ts";
import type { Tx } from "../../db/database.ts";
import { recordEvent } from "../../events/record.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { LimitExceededError } from "../../shared/errors.ts";
import { sqlOf } from "../../shared/sql.ts";
import { parseInput } from "../../shared/validation.ts";
import type { Write } from "../../shared/write.ts";
import { assertLegalValues, normalizeConstraints } from "./constraints.logic.ts";
import { disableWhenNoEnabledStrategy } from "./enabled-state.write.ts";
import {
  type ContextFieldValues,
  checkLegalValues,
  contextNamesOf,
  legalValuesOf,
  legalValuesSql,
} from "./legal-values.read.ts";
import {
  type NewStrategy,
  type NewStrategyInput,
  newStrategySchema,
  type StrategySortOrderInput,
  type StrategyUpdateInput,
  storedAsGiven,
  strategySortOrderSchema,
  strategyUpdateSchema,
} from "./strategy.inputs.ts";
import type { Constraint } from "./strategy.types.ts";
import {
  type EnvironmentTarget,
  loadTarget,
  type StoredStrategy,
  strategiesOf,
  strategyIn,
  strategyRecord,
} from "./strategy-record.read.ts";
import { checkStrategySegments } from "./strategy-segments.read.ts";
import { normalizeStrategyVariants } from "./variants.logic.ts";

/**
 * Adds a strategy to a flag in one environment (sortOrder: given, else after the last one).
 * Event: feature-strategy-add. Errors: NotFound (flag/env), Archived, Validation,
 * LimitExceeded (featureEnvironmentStrategies, constraints, constraintValues, strategySegments).
 */
export async function addStrategy(
  w: Write,
  target: EnvironmentTarget,
  input: NewStrategyInput,
  limits: ResourceLimits,
) {
  await loadTarget(w, target);
  return insertStrategy(w, target, parseInput(newStrategySchema, input), limits);
}

/** Adds a validated strategy; shared with enabling, which adds the default strategy. */
export async function insertStrategy(
  w: Write,
  target: EnvironmentTarget,
  input: NewStrategy,
  limits: ResourceLimits,
): Promise<StoredStrategy> {
  const checks = await strategyInsertChecks(w.tx, target, contextNamesOf(input.constraints ?? []));
  if (checks.count >= limits.featureEnvironmentStrategies) {
    throw new LimitExceededError("strategy", limits.featureEnvironmentStrategies);
  }
  const constraints = normalizeConstraints(input.constraints ?? [], [], limits);
  assertLegalValues(constraints, legalValuesOf(checks.fields), "constraints");
  const segments = await checkStrategySegments(
    w.tx,
    input.segments ?? [],
    target.project,
    limits.strategySegments,
  );
  const row = await w.tx.featureStrategy.create({
    data: {
      ...storedAsGiven(input),
      id: randomUUID(),
      featureName: target.feature,
      projectId: target.project,
      environmentName: target.environment,
      strategyName: input.name,
      sortOrder: input.sortOrder ?? checks.lastOrder + 1,
      parameters: normalizeParameters(input.name, input.parameters ?? {}, target.feature),
      constraints: constraints as Prisma.InputJsonValue,
      variants: normalizeStrategyVariants(input.variants ?? []) as Prisma.InputJsonValue,
      createdAt: w.now,
      createdByUserId: w.actor.userId,
    },
  });
  if (segments.length > 0) {
    await w.tx.featureStrategySegment.createMany({
      data: segments.map((segmentId) => ({ strategyId: row.id, segmentId })),
    });
  }
  const created: StoredStrategy = { ...row, segments: segments.map((segmentId) => ({ segmentId })) };
  await recordEvent(w, {
    type: "feature-strategy-add",
    project: target.project,
    environment: target.environment,
    featureName: target.feature,
    data: strategyRecord(created),
  });
  return created;
}

/**
 * What adding a strategy to the flag in the environment depends on, in one statement: how
 * many strategies it has and the last sortOrder (-1 for none), and the legal values of the
 * context fields its constraints name.
 */
async function strategyInsertChecks(tx: Tx, target: EnvironmentTarget, contextNames: string[]) {
  const [row] = await sqlOf(tx).query<{ count: number; lastOrder: number; fields: ContextFieldValues[] }>`
    SELECT count(*)::int AS count, COALESCE(max(s."sortOrder"), -1) AS "lastOrder",
           ${contextNames.length > 0 ? legalValuesSql(contextNames, target.project) : Prisma.sql`'[]'::jsonb`} AS fields
      FROM "FeatureStrategy" s
     WHERE s."featureName" = ${target.feature} AND s."environmentName" = ${target.environment}`;
  if (!row) throw new Error("the strategy checks returned no row");
  return row;
}

/**
 * Updates a strategy; fields not given keep their value. Event: feature-strategy-update (none
 * when nothing changes); when no enabled strategy remains, the environment is turned off
 * (feature-environment-disabled). Constraint limits are grandfathered.
 */
export async function updateStrategy(
  w: Write,
  target: EnvironmentTarget,
  id: string,
  input: StrategyUpdateInput,
  limits: ResourceLimits,
) {
  await loadTarget(w, target);
  const data = parseInput(strategyUpdateSchema, input);
  const before = await strategyIn(w.tx, target, id);
  const name = data.name ?? before.strategyName;
  const constraints = data.constraints
    ? normalizeConstraints(data.constraints, before.constraints as Constraint[], limits)
    : undefined;
  if (constraints) await checkLegalValues(w.tx, constraints, undefined, target.project);
  const segments = data.segments
    ? await checkStrategySegments(w.tx, data.segments, target.project, limits.strategySegments)
    : undefined;
  if (segments) {
    await w.tx.featureStrategySegment.deleteMany({ where: { strategyId: id } });
    await w.tx.featureStrategySegment.createMany({
      data: segments.map((segmentId) => ({ strategyId: id, segmentId })),
    });
  }
  const after = await w.tx.featureStrategy.update({
    where: { id },
    data: {
      ...storedAsGiven(data),
      strategyName: name,
      ...(typeof data.sortOrder === "number" ? { sortOrder: data.sortOrder } : {}),
      ...(data.parameters ? { parameters: normalizeParameters(name, data.parameters, target.feature) } : {}),
      ...(constraints ? { constraints: constraints as Prisma.InputJsonValue } : {}),
      ...(data.variants
        ? { variants: normalizeStrategyVariants(data.variants) as Prisma.InputJsonValue }
        : {}),
    },
    include: { segments: { select: { segmentId: true }, orderBy: { segmentId: "asc" } } },
  });
  await recordStrategyUpdate(w, target, before, after);
  await disableWhenNoEnabledStrategy(w, target);
  return after;
}

export async function recordStrategyUpdate(
  w: Write,
  target: EnvironmentTarget,
  before: StoredStrategy,
  after: StoredStrategy,
) {
  await recordEvent(w, {
    type: "feature-strategy-update",
    project: target.project,
    environment: target.environment,
    featureName: target.feature,
    data: strategyRecord(after),
    preData: strategyRecord(before),
  });
}

/**
 * Deletes a strategy. Event: feature-strategy-remove; then, when no enabled strategy remains
 * in an enabled environment, feature-environment-disabled.
 */
export async function deleteStrategy(w: Write, target: EnvironmentTarget, id: string) {
  await loadTarget(w, target);
  await removeStrategy(w, target, await strategyIn(w.tx, target, id));
  await disableWhenNoEnabledStrategy(w, target);
}

/**
 * Removing a stored strategy, the one path for it (a single deletion, an import replacing the
 * environment's strategies): the row goes, `feature-strategy-remove` with it as preData.
 */
export async function removeStrategy(w: Write, target: EnvironmentTarget, before: StoredStrategy) {
  await w.tx.featureStrategy.delete({ where: { id: before.id } });
  await recordEvent(w, {
    type: "feature-strategy-remove",
    project: target.project,
    environment: target.environment,
    featureName: target.feature,
    preData: strategyRecord(before),
  });
}

/**
 * Sets the sortOrder of the listed strategies (each must belong to the flag in the
 * environment). Event: strategy-order-changed with the ids in their new and old order
 * (none when the order stays the same).
 */
export async function reorderStrategies(w: Write, target: EnvironmentTarget, input: StrategySortOrderInput) {
  await loadTarget(w, target);
  const items = parseInput(strategySortOrderSchema, input);
  const before = await strategiesOf(w.tx, target.feature, target.environment);
  for (const item of items) await strategyIn(w.tx, target, item.id);
  for (const item of items) {
    await w.tx.featureStrategy.update({ where: { id: item.id }, data: { sortOrder: item.sortOrder } });
  }
  const after = await strategiesOf(w.tx, target.feature, target.environment);
  await recordEvent(w, {
    type: "strategy-order-changed",
    project: target.project,
    environment: target.environment,
    featureName: target.feature,
    data: { strategyIds: after.map((s) => s.id) },
    preData: { strategyIds: before.map((s) => s.id) },
  });
}

/**
 * Parameters are a map of strings (numbers and booleans are written as strings, as Unleash
 * does). A flexibleRollout without groupId groups by the flag name, and sticks on `default`.
 */
export function normalizeParameters(
  name: string,
  parameters: Record<string, string | number | boolean>,
  flag: string,
) {
  const strings = Object.fromEntries(Object.entries(parameters).map(([k, v]) => [k, String(v)]));
  if (name !== "flexibleRollout") return strings;
  return { ...strings, groupId: strings.groupId || flag, stickiness: strings.stickiness || "default" };
}
