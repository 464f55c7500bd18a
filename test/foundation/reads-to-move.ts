/**
 * Reads of a table outside its owner module (src/db/table-owners.ts) that have not yet moved
 * into the owner's .read.ts (issue 38, "owners serve their data"): per file, per table, how many.
 * test/foundation/table-ownership.test.ts fails when the code holds more or fewer than listed,
 * so this list only shrinks. A read that must stay where it is goes to EXTRA_READERS, with why.
 */
export const READS_TO_MOVE: Record<string, Record<string, number>> = {};
