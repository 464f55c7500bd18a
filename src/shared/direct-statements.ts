import { AsyncLocalStorage } from "node:async_hooks";
import type {
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  Transaction,
} from "@prisma/driver-adapter-utils";
import { Prisma, type PrismaClient } from "../generated/prisma/client.ts";

/**
 * Where a hand-written statement (`sqlOf`, src/shared/sql.ts) is sent: the driver adapter that
 * Prisma's client runs on, or the adapter transaction Prisma opened for a `$transaction` begun
 * by `openTransaction`. The same connection, the same transaction and the same statement names
 * as `$queryRaw`, without the client's request pipeline around each statement, which cost a
 * toggle a third of its CPU (D-09). Nothing of the adapter is replaced: the factory is wrapped,
 * as the statement observer wraps it (sql-observer.ts).
 */
export type DirectStatements = Pick<SqlDriverAdapter, "queryRaw" | "executeRaw">;

/** The adapter transaction of one `openTransaction`, while its work runs. */
type Slot = { transaction?: Transaction; closed: boolean };

const opening = new AsyncLocalStorage<Slot>();
const adapterOfClient = new WeakMap<object, () => Promise<SqlDriverAdapter>>();
const slotOfTransaction = new WeakMap<object, Slot>();

/**
 * The factory Prisma's client is given: its adapter is shared with `sqlOf`, and a transaction
 * it starts inside `openTransaction` is handed to that call (found through its async context).
 */
export function sharingStatements(factory: SqlMigrationAwareDriverAdapterFactory) {
  let connected: Promise<SqlDriverAdapter> | undefined;
  const connect = () => {
    connected ??= factory.connect().then(noticingTransactions);
    return connected;
  };
  const shared: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect,
    connectToShadowDb: () => factory.connectToShadowDb(),
  };
  return { factory: shared, adapter: connect };
}

function noticingTransactions(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const startTransaction = async (...args: Parameters<SqlDriverAdapter["startTransaction"]>) => {
    const transaction = await adapter.startTransaction(...args);
    const slot = opening.getStore();
    if (slot && !slot.transaction) slot.transaction = transaction;
    return transaction;
  };
  // Every statement asks for `queryRaw`: each method is bound once, not at every call.
  const bound = new Map<PropertyKey, unknown>([["startTransaction", startTransaction]]);
  return new Proxy(adapter, {
    get(target, key) {
      const known = bound.get(key);
      if (known) return known;
      const value = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      const method = value.bind(target);
      bound.set(key, method);
      return method;
    },
  });
}

/** Makes `sqlOf(prisma)` send statements outside transactions to `adapter`. */
export function shareStatements(prisma: PrismaClient, adapter: () => Promise<SqlDriverAdapter>): void {
  adapterOfClient.set(prisma, adapter);
}

type TransactionOptions = Parameters<PrismaClient["$transaction"]>[1];
type TransactionClient = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/**
 * `db.$transaction(work, options)`, where `sqlOf(tx)` runs on the transaction's own adapter
 * transaction. Every interactive transaction of the server is opened here.
 */
export async function openTransaction<T>(
  db: PrismaClient,
  work: (tx: TransactionClient) => Promise<T>,
  options?: TransactionOptions,
): Promise<T> {
  const slot: Slot = { closed: false };
  try {
    return await opening.run(slot, () =>
      db.$transaction((tx) => {
        slotOfTransaction.set(tx, slot);
        return work(tx);
      }, options),
    );
  } finally {
    slot.closed = true;
  }
}

/** Where `sqlOf(db)` sends its statements, or undefined: through Prisma's `$queryRaw`. */
export async function directStatementsOf(db: object): Promise<DirectStatements | undefined> {
  const slot = slotOfTransaction.get(db);
  if (slot) {
    // Prisma answers a statement on an ended transaction with its P2028; so does this path.
    if (slot.closed) throw transactionClosed();
    return slot.transaction;
  }
  return adapterOfClient.get(db)?.();
}

function transactionClosed() {
  return new Prisma.PrismaClientKnownRequestError(
    "Transaction API error: Transaction already closed: a statement was sent after its transaction ended.",
    { code: "P2028", clientVersion: Prisma.prismaVersion.client },
  );
}
