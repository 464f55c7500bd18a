import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { openPostgres } from "../../src/db/database.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { createPglite } from "../../src/db/pglite.ts";
import { openPglite } from "../../src/db/pglite-database.ts";
import { adminDatabaseUrl, databaseUrl } from "./postgres.ts";
import { buildIfStale } from "./server-process.ts";

/**
 * Builds what is stale, then migrates once per run: a PGlite data dir dumped to a file (each test file loads a copy),
 * or, with TEST_DATABASE_URL, a PostgreSQL template database (each file CREATEs from it).
 */
export default async function setup(project: TestProject) {
  // Server processes and browser tests run the build (dist/, ui/dist/): brought up to date
  // here, once, before the workers start.
  buildIfStale();
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const template = `vexil_template_${process.pid}`;
    const admin = openPostgres(adminDatabaseUrl(url));
    await admin.prisma.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${template}`);
    await admin.prisma.$executeRawUnsafe(`CREATE DATABASE ${template}`);
    const db = openPostgres(databaseUrl(url, template));
    await applyMigrations(db.adapterFactory);
    await db.close();
    project.provide("postgresTemplate", template);
    return async () => {
      await admin.prisma.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      await admin.close();
    };
  }
  const dir = await mkdtemp(join(tmpdir(), "vexil-test-"));
  const db = openPglite(await createPglite("memory://"));
  await applyMigrations(db.adapterFactory);
  const dump = await db.pglite!.dumpDataDir("none");
  const file = join(dir, "template.tar");
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await db.close();
  project.provide("pgliteTemplate", file);
  return () => rm(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate?: string;
    postgresTemplate?: string;
  }
}
