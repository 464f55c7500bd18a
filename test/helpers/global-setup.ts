import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import type { Db } from "../../src/db/database.ts";
import { TEST_ADMIN_ENV } from "./admin.ts";
import { adminDatabaseUrl, databaseUrl } from "./postgres.ts";
import { buildIfStale } from "./server-process.ts";

const ROOT = join(import.meta.dirname, "..", "..");

type Provided = {
  pgliteEmptyTemplate?: string;
  pgliteTemplate?: string;
  pgliteBootstrappedTemplate?: string;
  postgresTemplate?: string;
  postgresBootstrappedTemplate?: string;
};
type Template = { provided: Provided; teardown(): Promise<void> };

/**
 * Builds what is stale, then makes the templates of a run: a migrated database, and a copy of it
 * bootstrapped with the test apps' admin (TEST_ADMIN_ENV; see createTestApp); and on both
 * databases an empty PGlite (initdb's, no migration: emptyPglite, for the migrations' tests). On PGlite, data
 * dirs dumped to files (each test file loads a copy), kept between runs while what they are made
 * from is unchanged; with TEST_DATABASE_URL, PostgreSQL template databases (each file CREATEs
 * from one). Vitest calls a global setup once per project (vitest.config.ts has one; a second
 * would share them): the first call makes the templates, every call provides them, and the last
 * teardown removes the PostgreSQL ones.
 */
export default async function setup(project: TestProject) {
  const shared = globalThis as { vexilTestTemplate?: { made: Promise<Template>; users: number } };
  shared.vexilTestTemplate ??= { made: makeTemplate(), users: 0 };
  const state = shared.vexilTestTemplate;
  state.users += 1;
  const { provided, teardown } = await state.made;
  for (const [key, value] of Object.entries(provided) as [keyof Provided, string][])
    project.provide(key, value);
  return async () => {
    state.users -= 1;
    if (state.users === 0) await teardown();
  };
}

async function makeTemplate(): Promise<Template> {
  // Server processes and browser tests run the build (dist/, ui/dist/): brought up to date
  // here, once, before the workers start.
  buildIfStale();
  const empty = { pgliteEmptyTemplate: await cachedEmptyPglite() };
  const { provided, teardown } = await makeMigratedTemplates();
  return { provided: { ...empty, ...provided }, teardown };
}

async function makeMigratedTemplates(): Promise<Template> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const { openPostgres, applyMigrations } = await appModules();
    const template = `vexil_template_${process.pid}`;
    const admin = openPostgres(adminDatabaseUrl(url));
    await admin.prisma.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${template}`);
    await admin.prisma.$executeRawUnsafe(`CREATE DATABASE ${template}`);
    const bootstrapped = `${template}_bootstrapped`;
    await admin.prisma.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${bootstrapped}`);
    const db = openPostgres(databaseUrl(url, template));
    await applyMigrations(db.adapterFactory);
    await db.close();
    await admin.prisma.$executeRawUnsafe(`CREATE DATABASE ${bootstrapped} TEMPLATE ${template}`);
    const copy = openPostgres(databaseUrl(url, bootstrapped));
    await bootstrapForTests(copy.prisma);
    await copy.close();
    return {
      provided: { postgresTemplate: template, postgresBootstrappedTemplate: bootstrapped },
      async teardown() {
        for (const name of [template, bootstrapped]) {
          await admin.prisma.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        }
        await admin.close();
      },
    };
  }
  const dir = await cachedPgliteTemplates();
  const files = {
    pgliteTemplate: join(dir, "template.tar"),
    pgliteBootstrappedTemplate: join(dir, "bootstrapped.tar"),
  };
  return { provided: files, teardown: async () => {} };
}

/** Where PGlite templates are kept between runs, one folder per TEMPLATE_INPUTS state. */
const TEMPLATE_CACHE = join(ROOT, "node_modules", ".cache", "vexil-test-templates");
/** What the templates are made from: the migrations, the bootstrap and the test admin. */
const TEMPLATE_INPUTS = [
  "prisma/migrations",
  "src/bootstrap.ts",
  "src/config.ts",
  "src/modules/access",
  "src/shared/actor.ts",
  "test/helpers/admin.ts",
  "test/helpers/global-setup.ts",
  "node_modules/@electric-sql/pglite/package.json",
];

/**
 * The folder holding this state's PGlite tarballs: made once and kept (making them costs
 * seconds of CPU, which every run, even of one file, would pay). A new one is written aside
 * and renamed, so concurrent runs never read half a folder.
 */
async function cachedPgliteTemplates(): Promise<string> {
  const dir = join(TEMPLATE_CACHE, await hashOfInputs());
  if (existsSync(join(dir, "bootstrapped.tar"))) {
    const now = new Date();
    await utimes(dir, now, now); // in use: see forgetUnusedTemplates
    return dir;
  }
  await mkdir(TEMPLATE_CACHE, { recursive: true });
  const work = await mkdtemp(join(tmpdir(), "vexil-test-"));
  const [migrated, bootstrapped] = await pgliteTarballs(work);
  await writeFile(join(work, "template.tar"), migrated);
  await writeFile(join(work, "bootstrapped.tar"), bootstrapped);
  const staged = `${dir}.${process.pid}`;
  await cp(work, staged, { recursive: true });
  await rm(work, { recursive: true, force: true });
  await rename(staged, dir).catch(() => rm(staged, { recursive: true, force: true })); // another run made it
  await forgetUnusedTemplates();
  return dir;
}

/**
 * A PGlite data dir as initdb leaves it, as a tarball kept beside the templates (initdb costs
 * 3-5 s of CPU; loading the tarball 0.6), remade only for another PGlite.
 */
async function cachedEmptyPglite(): Promise<string> {
  const pglite = await readFile(join(ROOT, "node_modules/@electric-sql/pglite/package.json"));
  const dir = join(TEMPLATE_CACHE, `empty-${createHash("sha256").update(pglite).digest("hex").slice(0, 16)}`);
  const file = join(dir, "empty.tar");
  if (existsSync(file)) {
    const now = new Date();
    await utimes(dir, now, now); // in use: see forgetUnusedTemplates
    return file;
  }
  const { createPglite } = await appModules();
  const db = await createPglite("memory://");
  const tarball = Buffer.from(await (await db.dumpDataDir("none")).arrayBuffer());
  await db.close();
  const staged = `${dir}.${process.pid}`;
  await mkdir(staged, { recursive: true });
  await writeFile(join(staged, "empty.tar"), tarball);
  await rename(staged, dir).catch(() => rm(staged, { recursive: true, force: true })); // another run made it
  return file;
}

/** Folders unused for a day go (not sooner: another checkout sharing node_modules may use one). */
async function forgetUnusedTemplates(): Promise<void> {
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const name of await readdir(TEMPLATE_CACHE)) {
    const path = join(TEMPLATE_CACHE, name);
    if ((await stat(path)).mtimeMs < dayAgo) await rm(path, { recursive: true, force: true });
  }
}

async function hashOfInputs(): Promise<string> {
  const hash = createHash("sha256");
  for (const input of TEMPLATE_INPUTS) {
    const path = join(ROOT, input);
    const files = input.endsWith(".ts") || input.endsWith(".json") ? [path] : await filesUnder(path);
    for (const file of files.sort()) hash.update(file.slice(ROOT.length)).update(await readFile(file));
  }
  return hash.digest("hex").slice(0, 16);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/**
 * The app's modules that make templates, loaded only when one is made: a run that finds the
 * PGlite templates cached (most runs) does not spend the main process's start on them.
 */
async function appModules() {
  const [bootstrap, config, database, migrate, pglite, pgliteDatabase, pgliteThread, logger] =
    await Promise.all([
      import("../../src/bootstrap.ts"),
      import("../../src/config.ts"),
      import("../../src/db/database.ts"),
      import("../../src/db/migrate.ts"),
      import("../../src/db/pglite.ts"),
      import("../../src/db/pglite-database.ts"),
      import("../../src/db/pglite-thread.ts"),
      import("../../src/shared/logger.ts"),
    ]);
  return {
    bootstrap: bootstrap.bootstrap,
    loadConfig: config.loadConfig,
    openPostgres: database.openPostgres,
    applyMigrations: migrate.applyMigrations,
    createPglite: pglite.createPglite,
    openPglite: pgliteDatabase.openPglite,
    PGLITE_TEMPLATE_DIR: pgliteThread.PGLITE_TEMPLATE_DIR,
    createLogger: logger.createLogger,
  };
}

/** What a test app's first start writes (createTestApp: TEST_ADMIN_ENV, no other INIT_ADMIN_*). */
async function bootstrapForTests(db: Db): Promise<void> {
  const { bootstrap, loadConfig, createLogger } = await appModules();
  await bootstrap(db, loadConfig(TEST_ADMIN_ENV), createLogger("silent"));
}

/**
 * A migrated PGlite data dir as a tarball, then the same bootstrapped (bootstrapForTests). The
 * migrated one is the build's template (dist/pglite-template, made by the build from the same
 * migrations, as a server's first start copies it) when there is one, else migrated here (the
 * WebAssembly schema engine: seconds of CPU).
 */
async function pgliteTarballs(dir: string): Promise<[Buffer, Buffer]> {
  const copy = join(dir, "data");
  const { PGLITE_TEMPLATE_DIR, openPglite, createPglite, applyMigrations } = await appModules();
  const fromBuild = existsSync(join(PGLITE_TEMPLATE_DIR, "PG_VERSION"));
  if (fromBuild) await cp(PGLITE_TEMPLATE_DIR, copy, { recursive: true });
  const db = openPglite(await createPglite(fromBuild ? copy : "memory://"));
  if (!fromBuild) await applyMigrations(db.adapterFactory);
  const dump = async () => Buffer.from(await (await db.pglite!.dumpDataDir("none")).arrayBuffer());
  const migrated = await dump();
  await bootstrapForTests(db.prisma);
  const bootstrapped = await dump();
  await db.close();
  await rm(copy, { recursive: true, force: true });
  return [migrated, bootstrapped];
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteEmptyTemplate?: string;
    pgliteTemplate?: string;
    pgliteBootstrappedTemplate?: string;
    postgresTemplate?: string;
    postgresBootstrappedTemplate?: string;
  }
}
