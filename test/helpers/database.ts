import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { inject } from "vitest";
import { type AdapterWrapper, type Database, openPgliteThread, openPostgres } from "../../src/db/database.ts";
import { createPglite } from "../../src/db/pglite.ts";
import { openPglite } from "../../src/db/pglite-database.ts";
import { StatementCache } from "../../src/db/pglite-statements.ts";
import { PGLITE_TEMPLATE_DIR, startPgliteThread } from "../../src/db/pglite-thread.ts";
import { givePgliteBack, leasedPglite, takePglite } from "./pglite-reuse.ts";
import { parseDataDirTarball, TemplateMemoryFS } from "./pglite-template-fs.ts";
import { adminDatabaseUrl, databaseUrl } from "./postgres.ts";

/**
 * A fresh, migrated database for one test file: a PGlite in the template's state (a copy, or
 * one an earlier file of this worker closed, restored: pglite-reuse.ts), or a new PostgreSQL
 * database made from the template (dropped again by `close`). `bootstrapped`: a copy
 * of the template global setup bootstrapped with TEST_ADMIN_ENV instead (only for an app
 * configured with exactly that admin: see createTestApp).
 */
export async function createTestDatabase(
  wrap?: AdapterWrapper,
  options: { bootstrapped?: boolean } = {},
): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  const template = inject(options.bootstrapped ? "postgresBootstrappedTemplate" : "postgresTemplate");
  if (url && template) {
    const name = `vexil_test_${randomBytes(6).toString("hex")}`;
    const admin = openPostgres(adminDatabaseUrl(url));
    await admin.prisma.$executeRawUnsafe(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    const db = openPostgres(databaseUrl(url, name), wrap);
    return {
      ...db,
      async close() {
        await db.close();
        await admin.prisma.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.close();
      },
    };
  }
  if (process.env.TEST_PGLITE_THREAD) return openThreadDatabase(wrap);
  const file = inject(options.bootstrapped ? "pgliteBootstrappedTemplate" : "pgliteTemplate");
  if (!file) throw new Error("global setup did not provide a database template");
  // Often a database an earlier file of this worker used, restored (pglite-reuse.ts).
  const pglite = await takePglite(file, () => openTemplateCopy(file));
  const lease = leasedPglite(pglite);
  const db = openPglite(lease.pglite, wrap, statementsOf(pglite));
  return {
    ...db,
    async close() {
      await db.prisma.$disconnect();
      lease.revoke();
      await givePgliteBack(file, pglite);
    },
  };
}

/**
 * A PGlite as initdb leaves it, no migration applied (a migration's test starts there): a copy
 * of global setup's empty template, in memory or, for a server to open later, in `dataDir`.
 * Running initdb instead costs 3-5 s of CPU.
 */
export async function emptyPglite(dataDir = "memory://"): Promise<PGlite> {
  const file = inject("pgliteEmptyTemplate");
  if (!file) throw new Error("global setup did not provide the empty PGlite template");
  if (dataDir === "memory://") return openTemplateCopy(file);
  return createPglite(dataDir, { loadDataDir: new Blob([await readFile(file)]) });
}

/** A new in-memory PGlite holding a copy of the template `file`. */
export async function openTemplateCopy(file: string): Promise<PGlite> {
  return createPglite("memory://", { fs: new TemplateMemoryFS(await templateEntries(file)) });
}

/**
 * A database's prepared statements, kept for the next file that gets it: that file's client runs
 * them without parsing and planning them again (pglite-statements.ts).
 */
const statementCaches = new WeakMap<PGlite, StatementCache>();
function statementsOf(pglite: PGlite): StatementCache {
  const cache = statementCaches.get(pglite) ?? new StatementCache();
  statementCaches.set(pglite, cache);
  return cache;
}

const templates = new Map<string, Promise<ReturnType<typeof parseDataDirTarball>>>();

/**
 * The template's files, read and parsed once per worker; each database gets its own copy of
 * them (TemplateMemoryFS). PGlite's own `loadDataDir` parses the tarball again for every
 * database and looks every parent folder up again for every file: ~40 % of opening one.
 */
function templateEntries(file: string) {
  let entries = templates.get(file);
  if (!entries) {
    entries = readFile(file).then((b) => parseDataDirTarball(new Uint8Array(b)));
    templates.set(file, entries);
  }
  return entries;
}

/**
 * TEST_PGLITE_THREAD=1: the embedded database as `npm start` runs it, on its own thread behind
 * a Unix socket (src/db/pglite-thread.ts), in a new folder copied from the build's template.
 */
async function openThreadDatabase(wrap?: AdapterWrapper): Promise<Database> {
  const dir = await mkdtemp(join(tmpdir(), "vexil-test-"));
  const thread = await startPgliteThread(join(dir, "data"), PGLITE_TEMPLATE_DIR);
  await thread.serving;
  const db = openPgliteThread(thread, wrap);
  return {
    ...db,
    async close() {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
