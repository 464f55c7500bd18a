import type { Tx } from "../db/database.ts";
import { sqlOf } from "./sql.ts";

/**
 * Counting rows and then inserting is a race at READ COMMITTED: ten concurrent creations can
 * all see the one free slot below a resource limit. Every creation of a limited resource takes
 * this transaction-scoped advisory lock before it counts, so they run one after another, on
 * every node sharing the database; the lock ends with the transaction.
 */
export async function lockLimitedResource(tx: Tx, resource: string): Promise<void> {
  await sqlOf(tx)
    .query`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtext(${`vexil-limit:${resource}`}))`;
}
