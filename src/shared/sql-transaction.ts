import { AsyncLocalStorage } from "node:async_hooks";
import type {
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  SqlQuery,
  Transaction,
} from "@prisma/driver-adapter-utils";
import type { Db, Tx } from "../db/database.ts";
import { adapterOf, bindStatements } from "./sql.ts";

/**
 * The two ways `runWrite` opens a transaction in which `sqlOf(tx)` statements run (D-143, D-145):
 * Prisma's own (`inPrismaTransaction`: model queries and statements together), or one of the
 * driver adapter alone (`inAdapterTransaction`: statements only, without the Prisma client's
 * transaction machinery).
 */
export type TransactionOpener = <T>(db: Db, work: (tx: Tx) => Promise<T>) => Promise<T>;

/** Prisma's limits for a write's transaction: waiting for a connection, and being open. */
const MAX_WAIT_MS = 10_000;
const TIMEOUT_MS = 30_000;

/** The open transaction Prisma started for an `inPrismaTransaction`, until it commits or rolls back. */
type TransactionSlot = { transaction?: Transaction; closed?: boolean };
const startingTransaction = new AsyncLocalStorage<TransactionSlot>();

/**
 * The adapter factory a Prisma client is built on, noting each transaction it starts for the
 * `inPrismaTransaction` waiting for it (the same async context), so that transaction's
 * statements can be sent to it directly.
 */
export function noteTransactions(
  factory: SqlMigrationAwareDriverAdapterFactory,
): SqlMigrationAwareDriverAdapterFactory {
  const noting = (adapter: SqlDriverAdapter) => {
    const start = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (...args) => {
      const transaction = await start(...args);
      const slot = startingTransaction.getStore();
      if (slot && !slot.transaction) {
        slot.transaction = transaction;
        closeSlotWith(transaction, slot);
      }
      return transaction;
    };
    return adapter;
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => noting(await factory.connect()),
    connectToShadowDb: async () => noting(await factory.connectToShadowDb()),
  };
}

/** `db.$transaction(work)`, with `sqlOf(tx)` sending its statements into that transaction. */
export const inPrismaTransaction: TransactionOpener = (db, work) => {
  const slot: TransactionSlot = {};
  return startingTransaction.run(slot, () =>
    db.$transaction(
      (tx) => {
        bindStatements(tx, async () => {
          // Prisma started it before calling back; once it ended, its connection is another's.
          if (!slot.transaction || slot.closed) throw new Error("The transaction is no longer open.");
          return slot.transaction;
        });
        return work(tx);
      },
      { maxWait: MAX_WAIT_MS, timeout: TIMEOUT_MS },
    ),
  );
};

function closeSlotWith(transaction: Transaction, slot: TransactionSlot) {
  const commit = transaction.commit.bind(transaction);
  const rollback = transaction.rollback.bind(transaction);
  transaction.commit = () => {
    slot.closed = true;
    return commit();
  };
  transaction.rollback = () => {
    slot.closed = true;
    return rollback();
  };
}

/**
 * Thrown when work run by `inAdapterTransaction` asks its transaction for a model query: the
 * transaction has rolled back, and `runWrite` runs the work again in Prisma's.
 */
export class ModelQueryNeeded extends Error {
  constructor(what: string) {
    super(`"${what}" needs Prisma's transaction.`);
  }
}

/**
 * Runs `work` in a transaction of the driver adapter itself, as Prisma's transaction manager
 * would (BEGIN, the statements, COMMIT, or ROLLBACK on an error), without the Prisma client
 * around it: ~0.3 ms of CPU less per write. `tx` serves `sqlOf(tx)` only; any model query on it
 * throws ModelQueryNeeded.
 */
export const inAdapterTransaction: TransactionOpener = async (db, work) => {
  const adapter = adapterOf(db);
  if (!adapter) throw new ModelQueryNeeded("a transaction of an unregistered client");
  const transaction = await startWithin(await adapter(), MAX_WAIT_MS);
  let open = true;
  const tx = statementsOnlyClient();
  bindStatements(tx, async () => {
    if (!open) throw new Error("The transaction is no longer open.");
    return transaction;
  });
  let result: Awaited<ReturnType<typeof work>>;
  try {
    result = await work(tx);
  } catch (error) {
    open = false;
    await end(transaction, "ROLLBACK").catch(() => undefined);
    throw error;
  }
  open = false;
  await end(transaction, "COMMIT");
  return result;
};

/** A connection with BEGIN sent, or an error after `maxWaitMs` (the pool is exhausted). */
async function startWithin(adapter: SqlDriverAdapter, maxWaitMs: number): Promise<Transaction> {
  const starting = adapter.startTransaction();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("No database connection was free in time.")), maxWaitMs);
  });
  try {
    return await Promise.race([starting, timedOut]);
  } catch (error) {
    // A connection that comes after all goes straight back.
    void starting.then((late) => end(late, "ROLLBACK")).catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** COMMIT or ROLLBACK, then the connection back to its pool; a failed COMMIT rolls back. */
async function end(transaction: Transaction, how: "COMMIT" | "ROLLBACK"): Promise<void> {
  if (transaction.options.usePhantomQuery) {
    // The driver ends the transaction itself (PGlite's).
    await (how === "COMMIT" ? transaction.commit() : transaction.rollback());
    return;
  }
  const statement: SqlQuery = { sql: how, args: [], argTypes: [] };
  try {
    await transaction.executeRaw(statement);
  } catch (error) {
    await transaction.rollback();
    throw error;
  }
  await (how === "COMMIT" ? transaction.commit() : transaction.rollback());
}

/** A stand-in transaction client: `sqlOf` finds it bound; anything else is a model query. */
function statementsOnlyClient(): Tx {
  return new Proxy(
    {},
    {
      get(_target, key) {
        // Awaiting or inspecting it is not a query.
        if (typeof key === "symbol" || key === "then") return undefined;
        throw new ModelQueryNeeded(key);
      },
    },
  ) as Tx;
}
