import type { Db } from "../../db/database.ts";

/** How many strategy types there are (built-in and custom). */
export function strategyDefinitionCount(db: Db) {
  return db.strategyDefinition.count();
}
