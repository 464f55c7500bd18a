import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import type { PGlite } from "@electric-sql/pglite";
import type { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type pg from "pg";
import type { Config } from "../config.ts";
import type { PrismaClient } from "../generated/prisma/client.ts";
import { PGLITE_THREAD_PORT, type PgliteThread } from "./pglite-thread.ts";
import { createPrismaClient } from "./prisma-client.ts";

export type Db = PrismaClient;
/** The client handed to services inside a transaction. */
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

export type Database = {
  kind: "pglite" | "postgres";
  prisma: PrismaClient;
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /** The PGlite instance when it runs in this thread (tests, benchmarks, scripts). */
  pglite?: PGlite;
  /** The pg pool in server mode: Prisma's connections, shared with the login rate limiter. */
  pool?: pg.Pool;
  /** Runs a trivial query: the readiness probe. */
  ping(): Promise<void>;
  close(): Promise<void>;
};

/**
 * Opens the database the configuration names: a PGlite folder, or a PostgreSQL server. With
 * `pgliteTemplate`, a PGlite folder that does not exist yet (or is empty) starts as a copy of
 * that template when there is one.
 */
export async function openDatabase(
  config: Config["database"],
  options: { pgliteTemplate?: string; wrap?: AdapterWrapper } = {},
): Promise<Database> {
  if (config.kind === "postgres") return openPostgres(config.url, options.wrap, { poolMax: config.poolMax });
  // Loaded only here: a server on PostgreSQL, or on the PGlite thread, never needs it.
  const { openPgliteFolder } = await import("./pglite-database.ts");
  return openPgliteFolder(config.dataDir, options);
}

/** Observes the SQL the client sends (the debug log's counts, statement-count tests). */
export type AdapterWrapper = (
  factory: SqlMigrationAwareDriverAdapterFactory,
) => SqlMigrationAwareDriverAdapterFactory;

/** Statements at least this long are prepared by name (see `statementName`). */
const PREPARED_MIN_LENGTH = 50;

/**
 * Statements run as named prepared statements: each connection parses them once, and
 * PostgreSQL may keep their plan. Planning costs more than running for most of them: a flag's
 * record 1.8 ms against 0.1 ms, a flag's lock 0.15 against 0.04 (`pg_stat_statements` during a
 * benchmark, D-108). Named by a hash of the text, so the same text always has the same name; only
 * trivial statements (`SELECT 1`, savepoints, `pg_notify`) stay unnamed (a 62-character row
 * lock was planned at every call under the old limit of 100). Values are always parameters, so
 * the texts are query shapes; a pooled PostgreSQL connection is replaced every half hour
 * (`openPostgres`) and drops what it kept (D-09).
 */
function statementName(query: { sql: string }): string {
  if (query.sql.length < PREPARED_MIN_LENGTH) return undefined as unknown as string;
  let name = statementNames.get(query.sql);
  if (name === undefined) {
    // The texts are a few hundred query shapes; a full map is simply started again.
    if (statementNames.size >= 1_000) statementNames.clear();
    name = `vexil_${createHash("sha256").update(query.sql).digest("base64url")}`;
    statementNames.set(query.sql, name);
  }
  return name;
}

/** Names already computed (a SHA-256 of a nested read's several kilobytes costs ~0.1 ms). */
const statementNames = new Map<string, string>();

type NodePostgres = {
  pg: typeof pg;
  /**
   * @prisma/adapter-pg runs a migration script by splitting it on every `;`, which breaks a
   * PL/pgSQL body or a `;` inside a string. Its adapters here send the script whole (PostgreSQL's
   * simple protocol runs several statements, in one implicit transaction) and report errors the
   * adapter's way, so the schema engine sees them as before.
   */
  WholeScriptPgFactory: typeof PrismaPg;
};
let nodePostgresModules: NodePostgres | undefined;

/**
 * node-postgres and Prisma's adapter over it, loaded on first use: an in-process PGlite (tests,
 * scripts, benchmarks) never needs them, and loading them is ~0.1 s of a start. Their CommonJS
 * builds, as the adapter's own `require("pg")` gets: it checks `instanceof pg.Pool`.
 */
function nodePostgres(): NodePostgres {
  if (nodePostgresModules) return nodePostgresModules;
  const require = createRequire(import.meta.url);
  const { PrismaPg } = require("@prisma/adapter-pg") as typeof import("@prisma/adapter-pg");
  class WholeScriptPgFactory extends PrismaPg {
    override async connect() {
      return wholeScripts(await super.connect());
    }
    override async connectToShadowDb() {
      return wholeScripts(await super.connectToShadowDb());
    }
  }
  nodePostgresModules = { pg: require("pg") as typeof pg, WholeScriptPgFactory };
  return nodePostgresModules;
}

function wholeScripts<T extends SqlDriverAdapter>(adapter: T): T {
  const pg = adapter as unknown as {
    client: { query(sql: string): Promise<unknown> };
    onError(e: unknown): never;
  };
  adapter.executeScript = async (script: string) => {
    try {
      await pg.client.query(script);
    } catch (error) {
      pg.onError(error);
    }
  };
  return adapter;
}

export function openPostgres(
  url: string,
  wrap: AdapterWrapper = (f) => f,
  options: { poolMax?: number } = {},
): Database {
  // One pool for Prisma (and every adapter the migrations open) and the other users of the
  // database: its size is the process's limit. Sessions run without JIT compilation (D-09): every
  // statement answers a request, and compiling one whose estimate passed jit_above_cost took
  // 0.1 to 3 s at 100,000 flags, run after run (an `options` in the URL replaces this one).
  const pool = new (nodePostgres().pg.Pool)({
    connectionString: url,
    max: options.poolMax ?? 10,
    maxLifetimeSeconds: 1800,
    options: "-c jit=off",
  });
  return { ...overPool(pool, wrap), pool };
}

/**
 * The embedded database served by its own thread (pglite-thread.ts), reached as a PostgreSQL
 * server over its Unix socket. One connection, as PGlite is one session; the pool is not
 * handed out (the login limiter and /metrics treat it as the single-process database it is).
 */
export function openPgliteThread(thread: PgliteThread, wrap: AdapterWrapper = (f) => f): Database {
  const pool = new (nodePostgres().pg.Pool)({
    host: thread.socketDir,
    port: PGLITE_THREAD_PORT,
    user: "postgres",
    database: "postgres",
    max: 1,
  });
  const database = overPool(pool, wrap);
  return {
    ...database,
    kind: "pglite",
    async close() {
      await database.close();
      await thread.close();
    },
  };
}

function overPool(pool: pg.Pool, wrap: AdapterWrapper): Database {
  // An idle connection that breaks is dropped by the pool and replaced on the next query; the
  // error must not crash the process (Prisma's adapter handles it the same way).
  pool.on("error", () => undefined);
  const { WholeScriptPgFactory } = nodePostgres();
  const adapterFactory = new WholeScriptPgFactory(pool, { statementNameGenerator: statementName });
  const prisma = createPrismaClient(wrap(adapterFactory));
  return {
    kind: "postgres",
    prisma,
    adapterFactory,
    async ping() {
      await prisma.$queryRawUnsafe("select 1");
    },
    async close() {
      await prisma.$disconnect();
      if (!pool.ended) await pool.end();
    },
  };
}
