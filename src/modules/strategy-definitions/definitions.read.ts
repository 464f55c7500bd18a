import type { Db } from "../../db/database.ts";

/** The names of the strategy types (built-in and custom). */
export async function strategyDefinitionNames(db: Db): Promise<string[]> {
  return (await db.strategyDefinition.findMany({ select: { name: true } })).map((d) => d.name);
}

/** How many strategy types there are (built-in and custom). */
export function strategyDefinitionCount(db: Db) {
  return db.strategyDefinition.count();
}
