// The benchmarks' databases: PostgreSQL when BENCH_DATABASE_URL is set (a database of the
// bench's own name on that server, dropped and re-created), PGlite otherwise.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, openPostgres } from "../src/db/database.ts";
import { createPglite } from "../src/db/pglite.ts";
import { openPglite } from "../src/db/pglite-database.ts";

/** Drops and re-creates database `name` on the server of `serverUrl`; returns its URL. */
async function freshPostgres(serverUrl: string, name: string): Promise<string> {
  const admin = openPostgres(serverUrl);
  await admin.prisma.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.prisma.$executeRawUnsafe(`CREATE DATABASE ${name}`);
  await admin.close();
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  return target.toString();
}

/** A database opened in this process (the server runs in the bench process). */
export async function openBenchDatabase(name: string): Promise<Database> {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) return openPglite(await createPglite("memory://"));
  return openPostgres(await freshPostgres(url, name));
}

/** Where a server process keeps its data: its environment, and what to remove afterwards. */
export type BenchStorage = {
  env: Record<string, string>;
  /** The PostgreSQL database's URL, when on PostgreSQL. */
  url?: string;
  /** The PGlite data folder, when embedded. */
  dir?: string;
  cleanup: () => Promise<void>;
};

/** Storage for a server process: a fresh PostgreSQL database, or a new PGlite folder. */
export async function benchStorage(name: string): Promise<BenchStorage> {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (serverUrl) {
    const url = await freshPostgres(serverUrl, name);
    return { env: { DATABASE_URL: url }, url, cleanup: async () => {} };
  }
  const dir = await mkdtemp(join(tmpdir(), `${name.replaceAll("_", "-")}-`));
  return { env: { VEXIL_DATA_DIR: dir }, dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
