import pg from "pg";

/*
 * Prisma's PostgreSQL adapter opens every transaction with BEGIN and waits for its answer
 * before the first statement. Here BEGIN waits instead: it is answered at once and sent with
 * the transaction's first statement, in one write, pipelined (node-postgres's pipeline mode,
 * only for those two). A write transaction then costs one round trip less: one socket write
 * and one read fewer in the server and in PostgreSQL, which on a loopback connection cost
 * ~0.1 ms of CPU each (docs/performance.md).
 *
 * Only a BEGIN sent while the connection is idle (not in a transaction) waits; there it can
 * fail only with the connection itself, and then the statement fails too.
 */

type QueryConfig = pg.QueryConfig;

const BEGIN_ANSWER = { command: "BEGIN", rowCount: null, oid: 0, rows: [], fields: [] };

/** The answers of a connection that BEGIN waits on. */
export class BeginWithStatementClient extends pg.Client {
  private beginWaiting = false;

  // biome-ignore lint/suspicious/noExplicitAny: node-postgres's query() has a dozen overloads.
  override query(config: any, values?: any, callback?: any): any {
    if (this.beginWaiting) {
      this.beginWaiting = false;
      if (isPromiseQuery(config, values, callback))
        return this.sendWithBegin(config as QueryConfig, values as unknown[] | undefined);
      super.query("BEGIN").catch(() => undefined);
      return super.query(config, values, callback);
    }
    if (textOf(config) === "BEGIN" && isPromiseQuery(config, values, callback) && this.idle()) {
      this.beginWaiting = true;
      return Promise.resolve({ ...BEGIN_ANSWER });
    }
    return super.query(config, values, callback);
  }

  /** Back in the pool: a BEGIN still waiting (a transaction that sent nothing) is dropped. */
  forgetWaitingBegin(): void {
    this.beginWaiting = false;
  }

  private idle(): boolean {
    const state = this as unknown as {
      _txStatus: string | null;
      _queryQueue: unknown[];
      _activeQuery: unknown;
    };
    return state._txStatus === "I" && state._queryQueue.length === 0 && !state._activeQuery;
  }

  private async sendWithBegin(config: QueryConfig, values: unknown[] | undefined) {
    const stream = (this as unknown as { connection: { stream: NodeJS.WritableStream & Corkable } })
      .connection.stream;
    const self = this as unknown as { pipeline: boolean };
    self.pipeline = true;
    stream.cork();
    let begin: Promise<unknown>;
    let statement: Promise<unknown>;
    try {
      begin = super.query("BEGIN");
      statement = super.query(config, values);
    } finally {
      stream.uncork();
    }
    try {
      const [beginResult, statementResult] = await Promise.allSettled([begin, statement]);
      if (beginResult.status === "rejected") throw beginResult.reason;
      if (statementResult.status === "rejected") throw statementResult.reason;
      return statementResult.value;
    } finally {
      self.pipeline = false;
    }
  }
}

type Corkable = { cork(): void; uncork(): void };

function textOf(config: unknown): string | undefined {
  return typeof config === "string" ? config : (config as QueryConfig | null)?.text;
}

/** The promise form, with a config or text and values: what Prisma's adapter sends. */
function isPromiseQuery(config: unknown, values: unknown, callback: unknown): boolean {
  if (callback !== undefined || typeof values === "function") return false;
  if (typeof config === "string") return true;
  return (
    typeof config === "object" &&
    config !== null &&
    typeof (config as { submit?: unknown }).submit !== "function"
  );
}
