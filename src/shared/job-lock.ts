import type { Tx } from "../db/database.ts";
import { sqlOf } from "./sql.ts";

/**
 * Whether this transaction got the job's advisory lock. `key` is any constant that names the job
 * among the database's advisory locks. With several nodes on one database, only the node holding
 * it runs the job's pass; the lock ends with the transaction.
 */
export async function tryJobLock(tx: Tx, key: number): Promise<boolean> {
  const [lock] = await sqlOf(tx).query<{ locked: boolean }>`
    SELECT pg_try_advisory_xact_lock(${key}::bigint) AS locked`;
  return lock?.locked === true;
}
