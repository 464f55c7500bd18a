import type { Db } from "../../db/database.ts";
import { probeHorizon, waitForTransactionsToEnd } from "../../events/horizon.ts";
import { openTransaction } from "../../shared/direct-statements.ts";
import { tryJobLock } from "../../shared/job-lock.ts";
import { sqlOf } from "../../shared/sql.ts";
import { DIMENSIONS, PAIR_VALUES, ROLLED_UP_THROUGH } from "./event-counts.read.ts";

// Rolls the event log up into `EventCount`; what it holds and how search reads it: event-counts.read.ts.

/** Any constant works: it names this job's lock among the database's advisory locks. */
const LOCK_KEY = 7_402_119;
/** Events aggregated per transaction by default (keeps each rollup transaction short). */
const CHUNK = 20_000;

/**
 * One rollup pass: moves `throughId` to the committed horizon, aggregating the new events in
 * chunks (one short transaction each). Waits at most `maxWaitMs` for the transactions running
 * now to end; if some still run, rolls up nothing and returns null (the next pass retries).
 * Another node holding the lock also makes it return null. Returns the new `throughId`.
 */
export async function rollUpEventCounts(
  db: Db,
  options: { maxWaitMs?: number; chunk?: number } = {},
): Promise<bigint | null> {
  const { cutoff, running } = await probeHorizon(db);
  if (!(await waitForTransactionsToEnd(db, running, options.maxWaitMs ?? 5_000))) return null;
  for (;;) {
    const through = await rollUpChunk(db, cutoff, BigInt(options.chunk ?? CHUNK));
    if (through === null || through >= cutoff) return through;
  }
}

/** Aggregates the events in (throughId, min(throughId + chunk, cutoff)]; null if another node rolls up. */
async function rollUpChunk(db: Db, cutoff: bigint, chunk: bigint): Promise<bigint | null> {
  return openTransaction(
    db,
    async (tx) => {
      if (!(await tryJobLock(tx, LOCK_KEY))) return null;
      const [row] = await sqlOf(tx).query<{
        through: bigint;
      }>`SELECT ${ROLLED_UP_THROUGH}::bigint AS through`;
      const from = BigInt(row?.through ?? 0);
      if (from >= cutoff) return from;
      const to = from + chunk < cutoff ? from + chunk : cutoff;
      await sqlOf(tx).execute`INSERT INTO "EventCount"(dimension, value, count)
        SELECT d.dimension, d.value, count(*) FROM "Event" e
          CROSS JOIN LATERAL (VALUES ('all', ''), ('feature', ${DIMENSIONS.feature}),
            ('project', ${DIMENSIONS.project}), ('type', ${DIMENSIONS.type}),
            ('environment', ${DIMENSIONS.environment}), ('createdBy', ${DIMENSIONS.createdBy}),
            ('day', to_char(e."createdAt", 'YYYY-MM-DD')), ${PAIR_VALUES}) AS d(dimension, value)
          WHERE e.id > ${from} AND e.id <= ${to} AND d.value IS NOT NULL
          GROUP BY d.dimension, d.value
        ON CONFLICT (dimension, value) DO UPDATE SET count = "EventCount".count + excluded.count`;
      await sqlOf(tx).execute`INSERT INTO "EventCountCursor"(id, "throughId") VALUES (1, ${to})
        ON CONFLICT (id) DO UPDATE SET "throughId" = excluded."throughId"`;
      return to;
    },
    { maxWait: 10_000, timeout: 60_000 },
  );
}
