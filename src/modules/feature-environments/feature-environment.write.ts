import type { Tx } from "../../db/database.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { sqlOf } from "../../shared/sql.ts";

// Writes of FeatureEnvironment (and of the project's FeatureStrategy rows) that other modules'
// actions need: this module owns those tables (src/db/table-owners.ts). Each function is the
// statement its caller ran before, so callers keep their SQL and statement counts (or, for a
// new flag, the statement its caller runs as part of its own). No events: the calling action
// records its own.

/**
 * A new flag gets a disabled state in each environment of its project: the INSERT statement,
 * which the flag's creation runs within its own statement (features/feature-create.write.ts:
 * one round trip for the flag and its rows).
 */
export function flagEnvironmentsInsert(featureName: string, environmentNames: readonly string[]): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO "FeatureEnvironment" ("featureName", "environmentName")
    SELECT ${featureName}, environment FROM unnest(${[...environmentNames]}::text[]) AS environment`;
}

/**
 * An environment enabled for a project gives each of `featureNames` a disabled state there;
 * states that already exist are kept.
 */
export async function addEnvironmentToFlags(tx: Tx, featureNames: readonly string[], environment: string) {
  await tx.featureEnvironment.createMany({
    data: featureNames.map((featureName) => ({ featureName, environmentName: environment, enabled: false })),
    skipDuplicates: true,
  });
}

/** An environment disabled for a project takes the state and strategies of the project's flags there. */
export async function removeProjectFlagsFromEnvironment(tx: Tx, projectId: string, environment: string) {
  const ofProjectHere = { feature: { projectId }, environmentName: environment };
  // Strategies would cascade from their feature environment; deleting them first says so.
  await tx.featureStrategy.deleteMany({ where: ofProjectHere });
  await tx.featureEnvironment.deleteMany({ where: ofProjectHere });
}

/**
 * Gives every flag of `projectId` (archived ones too) in environment `to` its state in `from`:
 * on or off, variants, and copies of its strategies (new ids, same segments). An environment
 * cloned for the project (projects/environment-lifecycle.write.ts); `to` holds no state yet.
 */
export async function copyProjectFlagsToEnvironment(
  tx: Tx,
  projectId: string,
  from: string,
  to: string,
  now: Date,
) {
  await sqlOf(tx).execute`
    INSERT INTO "FeatureEnvironment" ("featureName", "environmentName", enabled, variants)
    SELECT f.name, ${to}, COALESCE(fe.enabled, false), COALESCE(fe.variants, '[]'::jsonb)
      FROM "Feature" f
      LEFT JOIN "FeatureEnvironment" fe ON fe."featureName" = f.name AND fe."environmentName" = ${from}
     WHERE f."projectId" = ${projectId}`;
  // Each copy is its source row with a new id, place and time (jsonb_populate_record), so a
  // column added to strategies is copied without naming it here.
  await sqlOf(tx).execute`
    WITH source AS (
      SELECT s AS strategy, s.id, gen_random_uuid()::text AS "copyId" FROM "FeatureStrategy" s
        JOIN "Feature" f ON f.name = s."featureName"
       WHERE f."projectId" = ${projectId} AND s."environmentName" = ${from}
    ), copied AS (
      INSERT INTO "FeatureStrategy"
      SELECT (jsonb_populate_record(strategy, jsonb_build_object(
                'id', "copyId", 'environmentName', ${to}::text, 'createdAt', ${now}::timestamp(3)))).*
        FROM source
      RETURNING id
    )
    INSERT INTO "FeatureStrategySegment" ("strategyId", "segmentId")
    SELECT source."copyId", ss."segmentId"
      FROM source JOIN "FeatureStrategySegment" ss ON ss."strategyId" = source.id`;
}

/** A revived flag starts off everywhere. */
export async function disableFlagEverywhere(tx: Tx, featureName: string) {
  await tx.featureEnvironment.updateMany({ where: { featureName }, data: { enabled: false } });
}

/** Sets the variants of a flag in one environment without an event (a clone copies its source's). */
export async function copyEnvironmentVariants(
  tx: Tx,
  featureName: string,
  environmentName: string,
  variants: Prisma.JsonValue,
) {
  await tx.featureEnvironment.update({
    where: { featureName_environmentName: { featureName, environmentName } },
    data: { variants: variants as Prisma.InputJsonValue },
  });
}

/**
 * Moves `lastSeenAt` of flag environments forward (never back), in one statement for a metrics
 * batch; `pairs` sorted so concurrent batches lock rows in the same order.
 */
export async function moveEnvironmentsLastSeen(
  tx: Tx,
  pairs: readonly { featureName: string; environment: string; seenAt: string }[],
) {
  await sqlOf(tx).execute(Prisma.sql`
    UPDATE "FeatureEnvironment" fe SET "lastSeenAt" = t.seen
    FROM unnest(${pairs.map((p) => p.featureName)}::text[], ${pairs.map((p) => p.environment)}::text[],
      ${pairs.map((p) => p.seenAt)}::timestamp(3)[]) AS t(f, e, seen)
    WHERE fe."featureName" = t.f AND fe."environmentName" = t.e
      AND (fe."lastSeenAt" IS NULL OR fe."lastSeenAt" < t.seen)`);
}
