import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdir, readdir, rename, rm, rmdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import type { Config } from "../config.ts";
import { PrismaClient } from "../generated/prisma/client.ts";
import { projectRoot } from "../shared/project-root.ts";

export type Db = PrismaClient;
/** The client handed to services inside a transaction. */
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

export type Database = {
  kind: "pglite" | "postgres";
  prisma: PrismaClient;
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /** The PGlite instance in embedded mode (tests clone it). */
  pglite?: PGlite;
  /** The pg pool in server mode: Prisma's connections, shared with the login rate limiter. */
  pool?: pg.Pool;
  /** Runs a trivial query: the readiness probe. */
  ping(): Promise<void>;
  close(): Promise<void>;
};

/**
 * A migrated, empty PGlite data folder made by the build (scripts/build.mjs). Creating a new
 * PGlite folder runs initdb in WebAssembly, several seconds of CPU; copying this is a fraction
 * of a second, and its migrations are already applied.
 */
export const PGLITE_TEMPLATE_DIR = join(projectRoot(), "dist", "pglite-template");

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
  if (!config.dataDir.startsWith("memory://")) {
    if (options.pgliteTemplate) await copyTemplateInto(config.dataDir, options.pgliteTemplate);
    await mkdir(config.dataDir, { recursive: true });
  }
  return openPglite(await createPglite(config.dataDir), options.wrap);
}

/**
 * Copies `template` to `dataDir` when `dataDir` is missing or empty. The copy is made beside
 * it and renamed into place, so a start interrupted mid-copy leaves no half data folder.
 */
async function copyTemplateInto(dataDir: string, template: string): Promise<void> {
  if (!existsSync(join(template, "PG_VERSION"))) return;
  const entries = await readdir(dataDir).catch(() => null);
  if (entries && entries.length > 0) return;
  await mkdir(dirname(dataDir), { recursive: true });
  const staging = `${dataDir.replace(/\/+$/, "")}.copy-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await cp(template, staging, { recursive: true });
  if (entries) await rmdir(dataDir);
  await rename(staging, dataDir);
}

/**
 * A PGlite with the extensions the migrations use (pg_trgm: trigram indexes for free-text
 * search). Every PGlite that runs migrations or opens a migrated data dir must come from here.
 */
export function createPglite(dataDir: string, options: PGliteOptions = {}): Promise<PGlite> {
  return PGlite.create(dataDir, { ...options, extensions: { ...options.extensions, pg_trgm } });
}

/**
 * pglite-prisma-adapter 0.7 fires `executeScript` without awaiting it, so a failing migration
 * is recorded as applied and its error escapes as an unhandled rejection. This factory hands
 * out adapters whose scripts are awaited and whose errors reach the schema engine.
 */
class AwaitingPGliteFactory extends PrismaPGlite {
  override async connect() {
    return awaitScripts(await super.connect());
  }
  /** The adapter's own shadow database is a bare PGlite; the migrations need pg_trgm. */
  override async connectToShadowDb() {
    return awaitScripts(await new PrismaPGlite(await createPglite("memory://")).connect());
  }
}

function awaitScripts(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const client = (adapter as unknown as { client: PGlite }).client;
  adapter.executeScript = async (script: string) => {
    await client.exec(script);
  };
  return adapter;
}

/** Observes the SQL the client sends (the debug log's counts, statement-count tests). */
export type AdapterWrapper = (
  factory: SqlMigrationAwareDriverAdapterFactory,
) => SqlMigrationAwareDriverAdapterFactory;

/** Wraps an already opened PGlite (tests pass clones of a migrated template). */
export function openPglite(pglite: PGlite, wrap: AdapterWrapper = (f) => f): Database {
  const adapterFactory = new AwaitingPGliteFactory(pglite);
  const prisma = new PrismaClient({ adapter: wrap(adapterFactory) });
  return {
    kind: "pglite",
    prisma,
    adapterFactory,
    pglite,
    async ping() {
      await pglite.query("select 1");
    },
    async close() {
      await prisma.$disconnect();
      if (!pglite.closed) await pglite.close();
    },
  };
}

/** Statements at least this long are prepared by name (see `statementName`). */
const PREPARED_MIN_LENGTH = 1_000;

/**
 * Large statements (searches, nested reads) run as named prepared statements: each connection
 * parses them once, and PostgreSQL may keep their plan, which for a search page costs about as
 * much as running it. Named by a hash of the text, so the same text always has the same name;
 * short statements stay unnamed, so the number of prepared statements per connection stays small.
 */
function statementName(query: { sql: string }): string {
  if (query.sql.length < PREPARED_MIN_LENGTH) return undefined as unknown as string;
  return `vexil_${createHash("sha256").update(query.sql).digest("base64url")}`;
}

/**
 * @prisma/adapter-pg runs a migration script by splitting it on every `;`, which breaks a
 * PL/pgSQL body or a `;` inside a string. Its adapters here send the script whole (PostgreSQL's
 * simple protocol runs several statements, in one implicit transaction) and report errors the
 * adapter's way, so the schema engine sees them as before.
 */
class WholeScriptPgFactory extends PrismaPg {
  override async connect() {
    return wholeScripts(await super.connect());
  }
  override async connectToShadowDb() {
    return wholeScripts(await super.connectToShadowDb());
  }
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
  // database: its size is the process's limit.
  const pool = new pg.Pool({ connectionString: url, max: options.poolMax ?? 10 });
  // An idle connection that breaks is dropped by the pool and replaced on the next query; the
  // error must not crash the process (Prisma's adapter handles it the same way).
  pool.on("error", () => undefined);
  const adapterFactory = new WholeScriptPgFactory(pool, { statementNameGenerator: statementName });
  const prisma = new PrismaClient({ adapter: wrap(adapterFactory) });
  return {
    kind: "postgres",
    prisma,
    adapterFactory,
    pool,
    async ping() {
      await prisma.$queryRawUnsafe("select 1");
    },
    async close() {
      await prisma.$disconnect();
      if (!pool.ended) await pool.end();
    },
  };
}
