import type { Db, Tx } from "../db/database.ts";
import { Prisma } from "../generated/prisma/client.ts";

/**
 * Hand-written statements: Prisma's own `$queryRaw` / `$executeRaw` on `db`, so a statement on a
 * write's `w.tx` runs in the same transaction as its model queries, and values are always
 * parameters. Used like `$queryRaw`:
 *
 *   const rows = await sqlOf(w.tx).query<{ name: string }>`SELECT name FROM "Feature" WHERE ...`;
 *
 * A fragment built with `Prisma.sql` (joins, optional conditions) is passed as the template.
 */
export type SqlClient = {
  query<T = unknown>(strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T[]>;
  execute(strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number>;
};

/** The statements of `db`: a client, or the transaction of a `runWrite`. */
export function sqlOf(db: Db | Tx): SqlClient {
  return {
    query: <T>(strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) =>
      db.$queryRaw<T[]>(statementOf(strings, values)),
    execute: (strings: TemplateStringsArray | Prisma.Sql, ...values: unknown[]) =>
      db.$executeRaw(statementOf(strings, values)),
  };
}

function statementOf(strings: TemplateStringsArray | Prisma.Sql, values: unknown[]): Prisma.Sql {
  return strings instanceof Prisma.Sql ? strings : Prisma.sql(strings, ...values);
}
