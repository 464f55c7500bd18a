import {
  type PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
} from "@electric-sql/pglite";

type BackendMessage = Parameters<typeof parse.parseResults>[0][number];

/** A statement PostgreSQL keeps parsed under `name`, with what Describe told of it once. */
type Statement = { name: string; paramTypes: number[]; rowDescription?: BackendMessage };

/**
 * The statements one database session holds, by SQL text, least recently used first. A cache
 * outlives a client when the session does: a test database handed from file to file keeps its
 * statements (test/helpers/pglite-reuse.ts).
 */
export class StatementCache {
  readonly statements = new Map<string, Statement>();
  /** `limit`: how many it keeps; beyond it, the least recently used is closed. */
  constructor(readonly limit = 500) {}
}

/** PostgreSQL's "prepared statement does not exist" (a DEALLOCATE or DISCARD ALL ran). */
const UNDEFINED_STATEMENT = "26000";
/** Names are unique in the process: several clients may share one session. */
let statementNames = 0;

/**
 * What pglite-prisma-adapter calls as its `client` (query, exec, transaction), so every
 * in-process PGlite behind Prisma goes through it. PGlite's own `query` parses, describes and
 * plans each statement again, in six round trips, and Prisma sends the same statements over
 * and over: here each is parsed once and kept under a name (PostgreSQL then settles on a
 * generic plan after a few runs), and a run is one round trip: Bind, Execute, Sync. It halves
 * the database's share of a test's CPU; the server's own PGlite, behind `pg`, does the same.
 */
export class PGliteStatements {
  readonly #pglite: PGlite;
  readonly #cache: StatementCache;

  constructor(pglite: PGlite, cache = new StatementCache()) {
    this.#pglite = pglite;
    this.#cache = cache;
  }

  get closed() {
    return this.#pglite.closed;
  }

  query<T>(sql: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    return this.#pglite._runExclusiveTransaction(() => this.#query<T>(sql, params, options, false));
  }

  exec(sql: string, options?: QueryOptions): Promise<Results[]> {
    return this.#pglite.exec(sql, options);
  }

  transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.#pglite.transaction((tx) =>
      callback({
        query: <R>(sql: string, params?: unknown[], options?: QueryOptions) => {
          if (tx.closed) throw new Error("Transaction is closed");
          return this.#query<R>(sql, params ?? [], options, true);
        },
        sql: tx.sql.bind(tx),
        exec: tx.exec.bind(tx),
        rollback: tx.rollback.bind(tx),
        listen: tx.listen.bind(tx),
        get closed() {
          return tx.closed;
        },
      }),
    );
  }

  #query<T>(sql: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean) {
    return this.#pglite._runExclusiveQuery(async () => {
      const messages = await this.#run(sql, params, options).catch((error) => {
        if (error?.code !== UNDEFINED_STATEMENT) throw error;
        this.#cache.statements.clear();
        return this.#run(sql, params, options);
      });
      if (!inTransaction) await this.#pglite.syncToFs();
      return parse.parseResults(messages, this.#pglite.parsers, options)[0] as Results<T>;
    });
  }

  /** The messages of one run of `sql`, its row description first. */
  async #run(sql: string, params: unknown[], options: QueryOptions | undefined): Promise<BackendMessage[]> {
    const statements = this.#cache.statements;
    const statement = statements.get(sql) ?? (await this.#prepare(sql));
    statements.delete(sql);
    statements.set(sql, statement);
    const values = params.map((param, i) => this.#serialize(param, statement.paramTypes[i], options));
    const { messages } = await this.#send(
      protocol.serialize.bind({ statement: statement.name, values: values as string[] }),
      protocol.serialize.execute({}),
    );
    return statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
  }

  async #prepare(sql: string): Promise<Statement> {
    const name = `vexil_${++statementNames}`;
    const { messages } = await this.#send(
      protocol.serialize.parse({ name, text: sql }),
      protocol.serialize.describe({ type: "S", name }),
    );
    const statements = this.#cache.statements;
    if (statements.size >= this.#cache.limit) {
      const [oldestSql, oldest] = statements.entries().next().value as [string, Statement];
      statements.delete(oldestSql);
      await this.#send(protocol.serialize.close({ type: "S", name: oldest.name }));
    }
    const statement = {
      name,
      paramTypes: parse.parseDescribeStatementResults(messages),
      rowDescription: messages.find((message) => message.name === "rowDescription"),
    };
    statements.set(sql, statement);
    return statement;
  }

  /** One round trip: `messages` and a Sync, which also ends an error's skipping. */
  #send(...messages: Uint8Array[]) {
    return this.#pglite.execProtocol(Buffer.concat([...messages, protocol.serialize.sync()]), {
      syncToFs: false,
    });
  }

  /** As PGlite's own `query` serialises a parameter of type `oid`. */
  #serialize(param: unknown, oid: number | undefined, options?: QueryOptions) {
    if (param === null || param === undefined) return null;
    const serialize =
      oid === undefined ? undefined : (options?.serializers?.[oid] ?? this.#pglite.serializers[oid]);
    return serialize ? serialize(param) : String(param);
  }
}
