import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaClient } from "../generated/prisma/client.ts";
import { registerClient } from "../shared/sql.ts";
import { noteTransactions } from "../shared/sql-transaction.ts";

/**
 * The Prisma client over a driver adapter. errorFormat "minimal": otherwise Prisma captures a
 * stack trace at every query, for the call site its error messages name (0.03 to 0.06 ms of CPU
 * per query, a few % of a write). Errors are told apart by their codes, and the stack of a
 * thrown error still shows the caller. `sqlOf(client)` sends hand-written statements over the
 * same adapter (src/db/sql.ts).
 */
export function createPrismaClient(adapter: SqlMigrationAwareDriverAdapterFactory): PrismaClient {
  const noted = noteTransactions(adapter);
  const client = new PrismaClient({ adapter: noted, errorFormat: "minimal" });
  registerClient(client, noted);
  return client;
}
