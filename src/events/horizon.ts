import { setTimeout as sleep } from "node:timers/promises";
import type { Db } from "../db/database.ts";
import { sqlOf } from "../shared/sql.ts";

/**
 * The committed horizon of the audit log: an event id at or below which no transaction can
 * still commit an event. Used by the live feed (src/modules/live/feed.live.ts) and the event-count
 * rollup (src/modules/events/event-counts.job.ts).
 *
 * Event ids come from a sequence and are allocated before commit, so a transaction can commit
 * id 7 after id 8 is already visible. An id becomes final (committed, or rolled back for ever)
 * once every transaction that could hold it has ended:
 *   1. cutoff := the sequence's last allocated value. Every transaction holding an id at or
 *      below it had an xid before this read (the ids' default, vexil_next_event_id(), takes
 *      the xid before it draws the id).
 *   2. list the xids of this database's sessions after step 1: such transactions are finished
 *      or in that list.
 *   3. once none of those xids is still running, every id up to the cutoff is final.
 */

/** Steps 1 and 2 in one statement (a database function runs them in order). */
export async function probeHorizon(db: Db): Promise<{ cutoff: bigint; running: string[] }> {
  const [row] = await sqlOf(db).query<{ lastId: bigint | number | string | null; runningXids: string[] }>`
    SELECT "lastId", "runningXids" FROM vexil_event_horizon()`;
  const last = row?.lastId;
  return {
    // Step 1: the last event id the sequence handed out (0 when none).
    cutoff: last === null || last === undefined ? 0n : BigInt(last),
    // Step 2: read from pg_stat_activity (the live xid of each session), not from a snapshot:
    // a snapshot's running list stops below its xmax, which omits the newest running xids.
    // Only this database's sessions count, so a long transaction elsewhere cannot stall us.
    running: row?.runningXids ?? [],
  };
}

/**
 * Step 3: waits until none of `xids` is running. With `maxWaitMs`, gives up after about that
 * long and returns false (some are still running); otherwise waits as long as it takes.
 */
export async function waitForTransactionsToEnd(
  db: Db,
  xids: string[],
  maxWaitMs = Number.POSITIVE_INFINITY,
): Promise<boolean> {
  let waited = 0;
  for (let delay = 1; xids.length > 0; delay = Math.min(delay * 2, 50)) {
    const [still] = await sqlOf(db).query<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND backend_xid::text = ANY(${xids}::text[])`;
    if (!still || still.n === 0) return true;
    if (waited >= maxWaitMs) return false;
    await sleep(delay);
    waited += delay;
  }
  return true;
}
