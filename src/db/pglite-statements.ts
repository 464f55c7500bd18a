import { type PGlite, parse, protocol, type QueryOptions, type Results, types } from "@electric-sql/pglite";

type BackendMessage = Parameters<typeof parse.parseResults>[0][number];
type Parsers = PGlite["parsers"];
type Field = { name: string; dataTypeID: number };

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

/** The transaction the adapter's `transaction` callback gets: what it uses of PGlite's. */
export type StatementsTransaction = {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string, options?: QueryOptions): Promise<Results[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
};

/**
 * What pglite-prisma-adapter calls as its `client` (query, exec, transaction), so every
 * in-process PGlite behind Prisma goes through it. PGlite's own `query` parses, describes and
 * plans each statement again, in six round trips, and Prisma sends the same statements over
 * and over: here each is parsed once and kept under a name (PostgreSQL then settles on a
 * generic plan after a few runs), and a run is one round trip: Bind, Execute, Sync. Its
 * answers are read here too (`resultSets`). The server's PGlite, behind node-postgres, runs
 * named statements too (`statementName`, database.ts).
 */
export class PGliteStatements {
  readonly #pglite: PGlite;
  readonly #cache: StatementCache;
  readonly #merged = new WeakMap<object, Parsers>();

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
    return this.#pglite._runExclusiveTransaction(() => this.#exec(sql, options, false));
  }

  /** As PGlite's `transaction`: BEGIN, then COMMIT, or ROLLBACK when `callback` throws. */
  transaction<T>(callback: (tx: StatementsTransaction) => Promise<T>): Promise<T> {
    return this.#pglite._runExclusiveTransaction(async () => {
      await this.#exec("BEGIN", undefined, true);
      let closed = false;
      const open = () => {
        if (closed) throw new Error("Transaction is closed");
      };
      const tx: StatementsTransaction = {
        query: async (sql, params, options) => {
          open();
          return this.#query(sql, params ?? [], options, true);
        },
        exec: async (sql, options) => {
          open();
          return this.#exec(sql, options, true);
        },
        rollback: async () => {
          open();
          await this.#exec("ROLLBACK", undefined, true);
          closed = true;
        },
        get closed() {
          return closed;
        },
      };
      try {
        const result = await callback(tx);
        if (!closed) {
          closed = true;
          await this.#exec("COMMIT", undefined, false);
        }
        return result;
      } catch (error) {
        if (!closed) await this.#exec("ROLLBACK", undefined, false);
        throw error;
      }
    });
  }

  /** Statements in PostgreSQL's simple protocol (scripts, transaction control): one answer each. */
  #exec(sql: string, options: QueryOptions | undefined, inTransaction: boolean) {
    return this.#pglite._runExclusiveQuery(async () => {
      const { messages } = await this.#pglite.execProtocol(protocol.serialize.query(sql), {
        syncToFs: false,
      });
      if (!inTransaction) await this.#pglite.syncToFs();
      return resultSets<Results["rows"][number]>(messages, this.#parsers(options?.parsers), options?.rowMode);
    });
  }

  #query<T>(sql: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean) {
    return this.#pglite._runExclusiveQuery(async () => {
      const messages = await this.#run(sql, params, options).catch((error) => {
        if (error?.code !== UNDEFINED_STATEMENT) throw error;
        this.#cache.statements.clear();
        return this.#run(sql, params, options);
      });
      if (!inTransaction) await this.#pglite.syncToFs();
      const [answer] = resultSets<T>(messages, this.#parsers(options?.parsers), options?.rowMode);
      return answer ?? { rows: [], fields: [], affectedRows: 0 };
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

  /** PGlite's parsers with the caller's, merged once per set of the caller's. */
  #parsers(own: QueryOptions["parsers"]): Parsers {
    if (!own) return this.#pglite.parsers;
    const merged = this.#merged.get(own) ?? { ...this.#pglite.parsers, ...own };
    this.#merged.set(own, merged);
    return merged;
  }

  /** As PGlite's own `query` serialises a parameter of type `oid`. */
  #serialize(param: unknown, oid: number | undefined, options?: QueryOptions) {
    if (param === null || param === undefined) return null;
    const serialize =
      oid === undefined ? undefined : (options?.serializers?.[oid] ?? this.#pglite.serializers[oid]);
    return serialize ? serialize(param) : String(param);
  }
}

/**
 * The answers in `messages`, one per statement, as PGlite's `parseResults` reads them. That one
 * copies PGlite's 316 parsers into a new object at every call (80 µs, a tenth of a flag write's CPU).
 */
function resultSets<T>(
  messages: BackendMessage[],
  parsers: Parsers,
  rowMode?: "array" | "object",
): Results<T>[] {
  const answers: Results<T>[] = [];
  let fields: Field[] = [];
  let rows: unknown[] = [];
  for (const message of messages) {
    if (message instanceof protocol.messages.RowDescriptionMessage) {
      fields = message.fields.map(({ name, dataTypeID }) => ({ name, dataTypeID }));
    } else if (message instanceof protocol.messages.DataRowMessage) {
      const values = message.fields.map((value, i) =>
        types.parseType(value, (fields[i] as Field).dataTypeID, parsers),
      );
      rows.push(rowMode === "array" ? values : Object.fromEntries(fields.map((f, i) => [f.name, values[i]])));
    } else if (message instanceof protocol.messages.CommandCompleteMessage) {
      answers.push({ rows: rows as T[], fields, affectedRows: affectedRowsOf(message.text) });
      fields = [];
      rows = [];
    }
  }
  return answers;
}

/** The row count a command tag gives (`INSERT 0 3`, `UPDATE 2`), as PGlite reads it. */
function affectedRowsOf(tag: string): number {
  const [command, first = "", second = ""] = tag.split(" ");
  if (command === "INSERT") return Number.parseInt(second, 10);
  if (command === "UPDATE" || command === "DELETE" || command === "COPY" || command === "MERGE")
    return Number.parseInt(first, 10);
  return 0;
}
