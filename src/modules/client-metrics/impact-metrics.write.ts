import type { Db } from "../../db/database.ts";
import { sqlOf } from "../../shared/sql.ts";
import { type ImpactRow, rowKey } from "./impact-metrics.logic.ts";

/**
 * Adds buffered impact-metric rows to their minutes in one statement: counters and histograms
 * add up, a gauge takes the newer value, histogram buckets add up per bound. Rows are sorted by
 * key, so nodes writing at once lock in the same order. No event: telemetry, as D-35's counts.
 */
export async function storeImpactRows(db: Db, rows: ImpactRow[]): Promise<void> {
  if (rows.length === 0) return;
  const sorted = [...rows].sort((a, b) => (rowKey(a) < rowKey(b) ? -1 : 1));
  const json = JSON.stringify(
    sorted.map((r) => ({ ...r, minute: r.minute.toISOString(), labels: r.labels, buckets: r.buckets })),
  );
  await sqlOf(db).execute`
    INSERT INTO "ImpactMetricMinute" AS m
      (name, environment, "appName", "labelsKey", minute, type, labels, value, count, buckets)
    SELECT r.name, r.environment, r."appName", r."labelsKey", r.minute, r.type, r.labels, r.value, r.count, r.buckets
    FROM jsonb_to_recordset(${json}::jsonb) AS r(
      name text, environment text, "appName" text, "labelsKey" text, minute timestamp(3), type text,
      labels jsonb, value float8, count float8, buckets jsonb)
    ON CONFLICT (name, environment, minute, "appName", "labelsKey") DO UPDATE SET
      type = EXCLUDED.type,
      value = CASE WHEN EXCLUDED.type = 'gauge' OR m.type <> EXCLUDED.type THEN EXCLUDED.value
                   ELSE m.value + EXCLUDED.value END,
      count = CASE WHEN m.type <> EXCLUDED.type THEN EXCLUDED.count ELSE m.count + EXCLUDED.count END,
      buckets = CASE WHEN m.buckets IS NULL OR EXCLUDED.buckets IS NULL OR m.type <> EXCLUDED.type
                     THEN EXCLUDED.buckets
                     ELSE (SELECT jsonb_object_agg(k, COALESCE((m.buckets ->> k)::float8, 0)
                                                    + COALESCE((EXCLUDED.buckets ->> k)::float8, 0))
                           FROM jsonb_object_keys(m.buckets || EXCLUDED.buckets) AS k) END`;
}
