import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import { type AdapterWrapper, type Database, openPgliteThread, openPostgres } from "../../src/db/database.ts";
import { createPglite } from "../../src/db/pglite.ts";
import { openPglite } from "../../src/db/pglite-database.ts";
import { PGLITE_TEMPLATE_DIR, startPgliteThread } from "../../src/db/pglite-thread.ts";
import { adminDatabaseUrl, databaseUrl } from "./postgres.ts";

/**
 * A fresh, migrated database for one test file: a copy of the PGlite template, or a new
 * PostgreSQL database made from the template (dropped again by `close`).
 */
export async function createTestDatabase(wrap?: AdapterWrapper): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  const template = inject("postgresTemplate");
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
  const file = inject("pgliteTemplate");
  if (!file) throw new Error("global setup did not provide a database template");
  const pglite = await createPglite("memory://", { loadDataDir: await templateTarball(file) });
  return openPglite(pglite, wrap);
}

let template: { file: string; bytes: Promise<ArrayBuffer> } | undefined;

/**
 * The template's tarball as PGlite reads it (`loadDataDir`: it only calls `arrayBuffer()`, and
 * copies each file out of it), read once per worker: Node's Blob hands out a 40 MB body in small
 * chunks it then concatenates, ~40 % of opening a database.
 */
async function templateTarball(file: string): Promise<Blob> {
  if (template?.file !== file) {
    template = {
      file,
      bytes: readFile(file).then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)),
    };
  }
  const bytes = await template.bytes;
  return new (class extends Blob {
    override arrayBuffer() {
      return Promise.resolve(bytes);
    }
  })();
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
