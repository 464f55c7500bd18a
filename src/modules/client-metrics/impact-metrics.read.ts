import type { Db, Tx } from "../../db/database.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { sqlOf } from "../../shared/sql.ts";
import type { ImpactMetricType, ImpactRow } from "./impact-metrics.logic.ts";

/** Labels and the values each may take (any of them); an empty selection matches every series. */
export type LabelSelectors = Record<string, string[]>;
export type ImpactRange = {
  name: string;
  environment: string;
  from: Date;
  /** Exclusive. */
  to: Date;
  labels?: LabelSelectors;
  /** Only series that have each of these labels with none of its values. */
  excluded?: LabelSelectors;
};

/** Rows read at most per call (about a week of one series per minute, or a day of seven). */
const MAX_ROWS = 10_000;

/** The stored minutes of one metric in one environment, `from` ≤ minute < `to`, oldest first. */
export async function impactMetricRows(db: Db | Tx, range: ImpactRange): Promise<ImpactRow[]> {
  const selected = [
    ...Object.entries(range.labels ?? {}).map(
      ([label, values]) => Prisma.sql`labels ->> ${label} = ANY(${values}::text[])`,
    ),
    // A series without the label reads NULL here, which no row passes: the label must be there.
    ...Object.entries(range.excluded ?? {}).map(
      ([label, values]) => Prisma.sql`labels ->> ${label} <> ALL(${values}::text[])`,
    ),
  ];
  const rows = await sqlOf(db).query<ImpactRow>`
    SELECT name, environment, "appName", "labelsKey", labels, minute, type, value, count, buckets
    FROM "ImpactMetricMinute"
    WHERE name = ${range.name} AND environment = ${range.environment}
      AND minute >= ${range.from} AND minute < ${range.to}
      ${selected.length ? Prisma.sql`AND ${Prisma.join(selected, " AND ")}` : Prisma.empty}
    ORDER BY minute, "appName", "labelsKey"
    LIMIT ${MAX_ROWS}`;
  return rows;
}

/**
 * The stored minutes, in one environment and `from` ≤ minute < `to`, of every metric whose series
 * carry a label named after `feature` (unleash-client labels a sample with each flag of its
 * context: `{<flag>: enabled|disabled|<variant>}`), by metric then minute.
 */
export async function flagImpactMetricRows(
  db: Db | Tx,
  range: { feature: string; environment: string; from: Date; to: Date },
): Promise<ImpactRow[]> {
  return sqlOf(db).query<ImpactRow>`
    SELECT name, environment, "appName", "labelsKey", labels, minute, type, value, count, buckets
    FROM "ImpactMetricMinute"
    WHERE environment = ${range.environment} AND minute >= ${range.from} AND minute < ${range.to}
      AND jsonb_exists(labels, ${range.feature})
    ORDER BY name, minute, "appName", "labelsKey"
    LIMIT ${MAX_ROWS}`;
}

export type KnownImpactMetric = { name: string; type: ImpactMetricType; environment: string };

/** The metrics SDKs reported that are still kept (in one environment, or all), by name. */
export function knownImpactMetrics(db: Db | Tx, environment?: string | null): Promise<KnownImpactMetric[]> {
  return sqlOf(db).query<KnownImpactMetric>`
    SELECT DISTINCT ON (name, environment) name, type, environment
    FROM "ImpactMetricMinute"
    ${environment ? Prisma.sql`WHERE environment = ${environment}` : Prisma.empty}
    ORDER BY name, environment, minute DESC
    LIMIT 1000`;
}

/** The type of the latest minute of a metric in an environment, or null when none is kept. */
export async function impactMetricType(
  db: Db | Tx,
  name: string,
  environment: string,
): Promise<ImpactMetricType | null> {
  const [row] = await sqlOf(db).query<{ type: ImpactMetricType }>`
    SELECT type FROM "ImpactMetricMinute" WHERE name = ${name} AND environment = ${environment}
    ORDER BY minute DESC LIMIT 1`;
  return row?.type ?? null;
}
