import type {
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  SqlQuery,
  Transaction,
} from "@prisma/driver-adapter-utils";
import type { AdapterWrapper } from "./database.ts";

/** Told of every statement Prisma sent, with its time to answer (or to fail) and its parameters. */
export type StatementListener = (sql: string, ms: number, args: readonly unknown[]) => void;

/**
 * Wraps the driver adapter so that every statement Prisma sends (inside and outside
 * transactions) is reported to `listener`: the debug log's statement count and time per
 * request, and the tests that pin statement counts.
 */
export function observeStatements(listener: StatementListener): AdapterWrapper {
  const timed = <R>(query: SqlQuery, run: (query: SqlQuery) => Promise<R>): Promise<R> => {
    const started = performance.now();
    return run(query).finally(() => listener(query.sql, performance.now() - started, query.args));
  };
  const wrapQueryable = <T extends SqlDriverAdapter | Transaction>(target: T): T => {
    const queryRaw = target.queryRaw.bind(target);
    const executeRaw = target.executeRaw.bind(target);
    target.queryRaw = (query) => timed(query, queryRaw);
    target.executeRaw = (query) => timed(query, executeRaw);
    return target;
  };
  const wrapAdapter = (adapter: SqlDriverAdapter) => {
    const start = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (...args) => wrapQueryable(await start(...args));
    return wrapQueryable(adapter);
  };
  return (factory: SqlMigrationAwareDriverAdapterFactory) => ({
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => wrapAdapter(await factory.connect()),
    connectToShadowDb: async () => wrapAdapter(await factory.connectToShadowDb()),
  });
}
