import { existsSync } from "node:fs";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { openPostgres } from "../../src/db/database.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { createPglite } from "../../src/db/pglite.ts";
import { openPglite } from "../../src/db/pglite-database.ts";
import { PGLITE_TEMPLATE_DIR } from "../../src/db/pglite-thread.ts";
import { adminDatabaseUrl, databaseUrl } from "./postgres.ts";
import { buildIfStale } from "./server-process.ts";

type Template = {
  provided: { pgliteTemplate?: string; postgresTemplate?: string };
  teardown(): Promise<void>;
};

/**
 * Builds what is stale, then makes one migrated template per run: a PGlite data dir dumped to
 * a file (each test file loads a copy), or, with TEST_DATABASE_URL, a PostgreSQL template
 * database (each file CREATEs from it). Vitest calls a global setup once per project
 * (vitest.config.ts has two): the first call makes the template, every call provides it, and
 * the last teardown removes it.
 */
export default async function setup(project: TestProject) {
  const shared = globalThis as { vexilTestTemplate?: { made: Promise<Template>; users: number } };
  shared.vexilTestTemplate ??= { made: makeTemplate(), users: 0 };
  const state = shared.vexilTestTemplate;
  state.users += 1;
  const { provided, teardown } = await state.made;
  if (provided.pgliteTemplate) project.provide("pgliteTemplate", provided.pgliteTemplate);
  if (provided.postgresTemplate) project.provide("postgresTemplate", provided.postgresTemplate);
  return async () => {
    state.users -= 1;
    if (state.users === 0) await teardown();
  };
}

async function makeTemplate(): Promise<Template> {
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
    return {
      provided: { postgresTemplate: template },
      async teardown() {
        await admin.prisma.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
        await admin.close();
      },
    };
  }
  const dir = await mkdtemp(join(tmpdir(), "vexil-test-"));
  const file = join(dir, "template.tar");
  await writeFile(file, await migratedPgliteTarball(dir));
  return { provided: { pgliteTemplate: file }, teardown: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * A migrated PGlite data dir as a tarball: the build's template (dist/pglite-template, made by
 * the build from the same migrations, as a server's first start copies it) when there is one,
 * else migrated here (the WebAssembly schema engine: seconds of CPU).
 */
async function migratedPgliteTarball(dir: string): Promise<Buffer> {
  const copy = join(dir, "data");
  const fromBuild = existsSync(join(PGLITE_TEMPLATE_DIR, "PG_VERSION"));
  if (fromBuild) await cp(PGLITE_TEMPLATE_DIR, copy, { recursive: true });
  const db = openPglite(await createPglite(fromBuild ? copy : "memory://"));
  if (!fromBuild) await applyMigrations(db.adapterFactory);
  const dump = await db.pglite!.dumpDataDir("none");
  await db.close();
  await rm(copy, { recursive: true, force: true });
  return Buffer.from(await dump.arrayBuffer());
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate?: string;
    postgresTemplate?: string;
  }
}
