import { existsSync } from "node:fs";
import { cp, mkdir, readdir, rename, rm, rmdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { SqlDriverAdapter } from "@prisma/driver-adapter-utils";
import { PrismaPGlite } from "pglite-prisma-adapter";

/**
 * Makes sure `dataDir` exists; with `template`, a folder that does not exist yet (or is empty)
 * starts as a copy of that template when there is one.
 */
export async function prepareDataDir(dataDir: string, template?: string): Promise<void> {
  if (dataDir.startsWith("memory://")) return;
  if (template) await copyTemplateInto(dataDir, template);
  await mkdir(dataDir, { recursive: true });
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
  return PGlite.create(dataDir, {
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
    ...options,
    extensions: { ...options.extensions, pg_trgm },
  });
}

/**
 * The embedded database's page cache. Its WebAssembly memory holds it for good and counts in
 * the server's own memory; PostgreSQL's default (128 MB) made an idle embedded server ~100 MiB
 * larger. Pages it does not keep are read again from the operating system's file cache.
 */
const EMBEDDED_SHARED_BUFFERS = "32MB";

/**
 * pglite-prisma-adapter 0.7 fires `executeScript` without awaiting it, so a failing migration
 * is recorded as applied and its error escapes as an unhandled rejection. This factory hands
 * out adapters whose scripts are awaited and whose errors reach the schema engine.
 */
export class AwaitingPGliteFactory extends PrismaPGlite {
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
