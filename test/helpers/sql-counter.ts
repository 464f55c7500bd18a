import type {
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  SqlQuery,
  Transaction,
} from "@prisma/driver-adapter-utils";
import type { AdapterWrapper } from "../../src/db/database.ts";

/**
 * Counts the SQL statements Prisma sends through the driver adapter (inside and outside
 * transactions), so tests can pin the statement count of typical queries: N+1 fails them.
 */
export function createSqlCounter() {
  const statements: string[] = [];
  const record = (query: SqlQuery) => {
    statements.push(query.sql);
  };
  const wrapQueryable = <T extends SqlDriverAdapter | Transaction>(target: T): T => {
    const original = { queryRaw: target.queryRaw.bind(target), executeRaw: target.executeRaw.bind(target) };
    target.queryRaw = (query: SqlQuery) => {
      record(query);
      return original.queryRaw(query);
    };
    target.executeRaw = (query: SqlQuery) => {
      record(query);
      return original.executeRaw(query);
    };
    return target;
  };
  const wrapAdapter = (adapter: SqlDriverAdapter) => {
    const start = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (...args) => wrapQueryable(await start(...args));
    return wrapQueryable(adapter);
  };
  const wrap: AdapterWrapper = (factory: SqlMigrationAwareDriverAdapterFactory) => ({
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => wrapAdapter(await factory.connect()),
    connectToShadowDb: async () => wrapAdapter(await factory.connectToShadowDb()),
  });
  return {
    wrap,
    statements,
    /** Runs `work` and returns the statements it sent. */
    async during<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
      const from = statements.length;
      const result = await work();
      return { result, statements: statements.slice(from) };
    },
  };
}
