import { Prisma } from "../../generated/prisma/client.ts";
import { sqlOf } from "../../shared/sql.ts";
import type { Write } from "../../shared/write.ts";
import { flagsNamed } from "../features/feature.read.ts";
import type { AppFlagCounts } from "./batch.logic.ts";

/**
 * Remembers the flag names in rejected metrics rows that no flag (active or archived) has, per
 * application and environment, with when they were last reported: two statements per batch
 * with such rows, none otherwise, and a third when new rows were added: at most `maxRows` rows
 * are kept, the least recently seen go first (D-35). Rows are sorted so concurrent batches
 * lock in the same order.
 */
export async function recordUnknownFlags(
  w: Write,
  rejected: readonly AppFlagCounts[],
  maxRows: number,
): Promise<void> {
  if (rejected.length === 0) return;
  const names = [...new Set(rejected.map((r) => r.featureName))];
  const known = new Set((await flagsNamed(w.tx, names)).map((f) => f.name));
  const latest = new Map<string, { name: string; appName: string; environment: string; seenAt: Date }>();
  for (const r of rejected) {
    if (known.has(r.featureName)) continue;
    const key = `${r.featureName}\u0000${r.appName}\u0000${r.environment}`;
    const row = latest.get(key);
    if (!row || row.seenAt < r.seenAt) {
      latest.set(key, {
        name: r.featureName,
        appName: r.appName,
        environment: r.environment,
        seenAt: r.seenAt,
      });
    }
  }
  const rows = [...latest.entries()]
    .sort(([, a], [, b]) => b.seenAt.getTime() - a.seenAt.getTime())
    .slice(0, maxRows)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, row]) => row);
  if (rows.length === 0) return;
  const [result] = await sqlOf(w.tx).query<{ added: number }>(Prisma.sql`
    WITH upserted AS (
      INSERT INTO "UnknownFlag" AS u (name, "appName", environment, "seenAt")
      SELECT * FROM unnest(${rows.map((r) => r.name)}::text[], ${rows.map((r) => r.appName)}::text[],
        ${rows.map((r) => r.environment)}::text[], ${rows.map((r) => r.seenAt)}::timestamp(3)[])
      ON CONFLICT (name, "appName", environment) DO UPDATE SET "seenAt" = GREATEST(u."seenAt", EXCLUDED."seenAt")
      RETURNING (xmax = 0) AS inserted)
    SELECT count(*) FILTER (WHERE inserted)::int AS added FROM upserted`);
  if ((result?.added ?? 0) > 0) await keepNewest(w, maxRows);
}

/**
 * Deletes the rows beyond the newest `maxRows`. Rows another batch is writing are skipped, not
 * waited for (they are being seen now, and waiting could deadlock with that batch): the table
 * may exceed the cap by what concurrent batches add, until the next batch with a new row.
 */
async function keepNewest(w: Write, maxRows: number): Promise<void> {
  await sqlOf(w.tx).execute(Prisma.sql`
    DELETE FROM "UnknownFlag" WHERE ctid = ANY(ARRAY(
      SELECT ctid FROM "UnknownFlag" ORDER BY "seenAt" DESC, name, "appName", environment
      OFFSET ${maxRows} FOR UPDATE SKIP LOCKED))`);
}
