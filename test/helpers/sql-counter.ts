import { observeStatements } from "../../src/db/sql-observer.ts";

/**
 * Counts the SQL statements Prisma sends through the driver adapter (inside and outside
 * transactions), so tests can pin the statement count of typical queries: N+1 fails them.
 */
export function createSqlCounter() {
  const statements: string[] = [];
  return {
    wrap: observeStatements((sql) => statements.push(sql)),
    statements,
    /** Runs `work` and returns the statements it sent. */
    async during<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
      const from = statements.length;
      const result = await work();
      return { result, statements: statements.slice(from) };
    },
  };
}
