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
  // Views over the adapter and its transactions (nothing of theirs is replaced): each answers
  // its statements through `timed`, and everything else from the object itself.
  const observed = <T extends SqlDriverAdapter | Transaction>(target: T, more: Partial<T> = {}): T =>
    new Proxy(target, {
      get(object, key) {
        if (key === "queryRaw" || key === "executeRaw") {
          const run = object[key].bind(object) as (query: SqlQuery) => Promise<unknown>;
          return (query: SqlQuery) => timed(query, run);
        }
        if (key in more) return more[key as keyof T];
        const value = Reflect.get(object, key, object);
        return typeof value === "function" ? value.bind(object) : value;
      },
    });
  const wrapAdapter = (adapter: SqlDriverAdapter) =>
    observed(adapter, {
      startTransaction: async (...args: Parameters<SqlDriverAdapter["startTransaction"]>) =>
        observed(await adapter.startTransaction(...args)),
    });
  return (factory: SqlMigrationAwareDriverAdapterFactory) => ({
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => wrapAdapter(await factory.connect()),
    connectToShadowDb: async () => wrapAdapter(await factory.connectToShadowDb()),
  });
}
