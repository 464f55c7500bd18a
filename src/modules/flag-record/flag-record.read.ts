import type { Db, Tx } from "../../db/database.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { sqlOf } from "../../shared/sql.ts";
import { textArray } from "../../shared/text-array.ts";
import type { FlagRecord } from "./flag-record.logic.ts";

/** The functions that build a record as json (read by the application) or jsonb (stored). */
const BUILDERS = {
  json: {
    object: Prisma.raw("json_build_object"),
    agg: Prisma.raw("json_agg"),
    of: Prisma.raw("to_json"),
    none: Prisma.raw("'[]'::json"),
  },
  jsonb: {
    object: Prisma.raw("jsonb_build_object"),
    agg: Prisma.raw("jsonb_agg"),
    of: Prisma.raw("to_jsonb"),
    none: Prisma.raw("'[]'::jsonb"),
  },
};

/**
 * The FlagRecord (flag-record.logic.ts) of the "Feature" row `f`, as a json expression: the one
 * SQL spelling of a record. Environments by name; strategies in evaluation order (sortOrder,
 * then creation, then id); segments, tags and parents in ascending order. With `environment`,
 * only that environment's state (none when the flag has no row there). Built as json to be read
 * (half the cost of jsonb, and the SDK configuration reads every flag through it), as jsonb to
 * be stored: the history of time travel embeds it in each event's statement (flag-history.write.ts).
 */
export function flagRecordJson(
  f: Prisma.Sql,
  { environment = null, as = "json" }: { environment?: string | null; as?: keyof typeof BUILDERS } = {},
): Prisma.Sql {
  const { object, agg, of, none } = BUILDERS[as];
  const inEnvironment =
    environment === null ? Prisma.empty : Prisma.sql`AND fe."environmentName" = ${environment}::text`;
  return Prisma.sql`${object}(
      'name', ${f}.name,
      'project', ${f}."projectId",
      'type', ${f}.type,
      'description', ${f}.description,
      'stale', ${f}.stale,
      'impressionData', ${f}."impressionData",
      'archived', ${f}."archivedAt" IS NOT NULL,
      'createdAt', to_char(${f}."createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'environments', COALESCE((
        SELECT ${agg}(${object}(
          'name', fe."environmentName",
          'enabled', fe.enabled,
          'variants', fe.variants,
          'strategies', COALESCE((
            SELECT ${agg}(${object}(
              'id', s.id,
              'name', s."strategyName",
              'title', s.title,
              'disabled', s.disabled,
              'sortOrder', s."sortOrder",
              'parameters', s.parameters,
              'constraints', s.constraints,
              'variants', s.variants,
              'segments', COALESCE((
                SELECT ${agg}(ss."segmentId" ORDER BY ss."segmentId")
                  FROM "FeatureStrategySegment" ss WHERE ss."strategyId" = s.id), ${none})
            ) ORDER BY s."sortOrder", s."createdAt", s.id)
              FROM "FeatureStrategy" s
             WHERE s."featureName" = ${f}.name AND s."environmentName" = fe."environmentName"), ${none})
        ) ORDER BY fe."environmentName")
          FROM "FeatureEnvironment" fe WHERE fe."featureName" = ${f}.name ${inEnvironment}), ${none}),
      'tags', COALESCE((
        SELECT ${agg}(${object}('type', t."tagType", 'value', t."tagValue") ORDER BY t."tagType", t."tagValue")
          FROM "FeatureTag" t WHERE t."featureName" = ${f}.name), ${none}),
      'dependencies', COALESCE((
        SELECT ${agg}(${object}('feature', d."parentName", 'enabled', d.enabled, 'variants', ${of}(d.variants))
                      ORDER BY d."parentName")
          FROM "FeatureDependency" d WHERE d."childName" = ${f}.name), ${none}))`;
}

/**
 * Which flags to read: by name (archived ones included), or every flag of some projects (`*`:
 * all) that is not archived, as SDKs and exports see them.
 */
export type FlagSelection = { names: readonly string[] } | { projects: readonly string[] | "*" };

/**
 * The FlagRecords of the selected flags (a name without a flag is left out), in name order, in
 * one statement on `db` (a write's transaction sees its own changes). With `environment`, each
 * record holds only that environment's state.
 */
export async function readFlagRecords(
  db: Db | Tx,
  selection: FlagSelection,
  environment: string | null = null,
): Promise<FlagRecord[]> {
  // JSON text parsed here: faster than jsonb decoded by the driver (D-27).
  return (await readFlagRecordTexts(db, selection, environment)).map(
    (text) => JSON.parse(text) as FlagRecord,
  );
}

/**
 * The same records as readFlagRecords, as the JSON text the statement answers (one string per
 * flag, in name order): what a reader hashes to tell whether anything changed before it maps them.
 */
export async function readFlagRecordTexts(
  db: Db | Tx,
  selection: FlagSelection,
  environment: string | null = null,
): Promise<string[]> {
  if ("names" in selection && selection.names.length === 0) return [];
  const rows = await sqlOf(db).query<{ record: string }>`
    SELECT ${flagRecordJson(Prisma.sql`f`, { environment })}::text AS record
      FROM "Feature" f WHERE ${selected(selection)} ORDER BY f.name`;
  return rows.map((r) => r.record);
}

function selected(selection: FlagSelection): Prisma.Sql {
  if ("names" in selection) return Prisma.sql`f.name = ANY (${textArray(selection.names)})`;
  if (selection.projects === "*") return Prisma.sql`f."archivedAt" IS NULL`;
  return Prisma.sql`f."archivedAt" IS NULL AND f."projectId" = ANY (${[...selection.projects]}::text[])`;
}

/** The FlagRecord of flag `name`, or null when there is none. */
export async function readFlagRecord(db: Db | Tx, name: string): Promise<FlagRecord | null> {
  const [record] = await readFlagRecords(db, { names: [name] });
  return record ?? null;
}
