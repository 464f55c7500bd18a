import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type { MigrationDirectory, MigrationList } from "@prisma/schema-engine-wasm";
import { projectRoot } from "../shared/project-root.ts";
import { MigrationError } from "./migration-error.ts";

export const PRISMA_DIR = join(projectRoot(), "prisma");
export const MIGRATIONS_DIR = join(PRISMA_DIR, "migrations");
const SCHEMA_PATH = join(PRISMA_DIR, "schema.prisma");
const NO_FILTERS = { externalTables: [], externalEnums: [] };

export async function readPrismaSchema() {
  return { path: SCHEMA_PATH, content: await readFile(SCHEMA_PATH, "utf8") };
}

/**
 * Loads `prisma/migrations` in the shape the schema engine expects (Prisma Migrate's layout).
 * Read synchronously: a dozen small files, read at start-up while the main thread's module
 * loading keeps libuv's file thread pool busy (async reads waited a quarter of a second there).
 */
export async function readMigrations(dir = MIGRATIONS_DIR): Promise<MigrationList> {
  const names = readdirOrEmpty(dir)
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const migrationDirectories: MigrationDirectory[] = names.map((name) => ({
    path: name,
    migrationFile: { path: "migration.sql", content: readText(join(dir, name, "migration.sql")) },
  }));
  const lock = readText(join(dir, "migration_lock.toml"));
  return {
    baseDir: dir,
    lockfile: { path: "migration_lock.toml", content: lock.tag === "ok" ? lock.value : null },
    migrationDirectories,
    shadowDbInitScript: "",
  };
}

function readdirOrEmpty(dir: string) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function readText(path: string): { tag: "ok"; value: string } | { tag: "error"; value: string } {
  try {
    return { tag: "ok", value: readFileSync(path, "utf8") };
  } catch (error) {
    return { tag: "error", value: (error as Error).message };
  }
}

/**
 * Applies every pending migration and records it in `_prisma_migrations`; a no-op when the
 * database is current. Refuses (with what to do) when a migration failed or was edited.
 */
export async function applyMigrations(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  options: { dir?: string; log?: (message: string) => void } = {},
): Promise<string[]> {
  const log = options.log ?? (() => {});
  const local = await readMigrations(options.dir);
  if (await isCurrent(adapterFactory, local)) return [];
  // The schema engine (WebAssembly) is loaded only when there is something to apply.
  const { withSchemaEngine } = await import("./schema-engine.ts");
  return withSchemaEngine(adapterFactory, await readPrismaSchema(), async (engine) => {
    const migrationsList = local;
    const diagnosis = await engine.diagnoseMigrationHistory({
      migrationsList,
      optInToShadowDatabase: false,
      filters: NO_FILTERS,
    });
    if (diagnosis.failedMigrationNames.length > 0) {
      throw new MigrationError(
        `Migration(s) ${diagnosis.failedMigrationNames.join(", ")} failed earlier and left the database half-migrated. ` +
          "Restore a backup or fix the database by hand, then delete the failed row from _prisma_migrations and start again.",
      );
    }
    if (diagnosis.editedMigrationNames.length > 0) {
      throw new MigrationError(
        `Migration(s) ${diagnosis.editedMigrationNames.join(", ")} were changed after being applied to this database. ` +
          "Restore the original migration.sql files (never edit a landed migration; add a new one instead).",
      );
    }
    const history = diagnosis.history;
    if (history && history.diagnostic !== "databaseIsBehind") {
      const unknown = "unpersistedMigrationNames" in history ? history.unpersistedMigrationNames : [];
      throw new MigrationError(
        `The database has migrations this build does not know (${unknown.join(", ")}). ` +
          "It was migrated by a newer Vexil: run that version, or restore a backup made before the upgrade.",
      );
    }
    const { appliedMigrationNames } = await engine.applyMigrations({
      migrationsList,
      filters: NO_FILTERS,
    });
    for (const name of appliedMigrationNames) log(`applied migration ${name}`);
    return appliedMigrationNames;
  }).catch((error: unknown) => {
    if (error instanceof MigrationError) throw error;
    throw new MigrationError(`Database migration failed: ${describe(error)}`);
  });
}

/**
 * True when the database holds exactly this build's migrations, each finished and unchanged
 * (Prisma's checksum: SHA-256 of migration.sql), and nothing failed or was rolled back. Then
 * the schema engine, a WASM module that costs about a second of CPU to load, is not needed at
 * start; anything else (a new, failed, edited or unknown migration) goes to the engine, which
 * applies or explains it.
 */
async function isCurrent(factory: SqlMigrationAwareDriverAdapterFactory, local: MigrationList) {
  const expected = new Map<string, string>();
  for (const dir of local.migrationDirectories) {
    if (dir.migrationFile.content.tag !== "ok") return false;
    expected.set(dir.path, createHash("sha256").update(dir.migrationFile.content.value).digest("hex"));
  }
  const adapter = await factory.connect();
  try {
    const result = await adapter.queryRaw({
      sql: `SELECT migration_name, checksum, finished_at IS NOT NULL AND rolled_back_at IS NULL AS done
            FROM _prisma_migrations`,
      args: [],
      argTypes: [],
    });
    const rows = result.rows as [string, string, boolean][];
    return (
      rows.length === expected.size &&
      rows.every(([name, checksum, done]) => done && expected.get(name) === checksum)
    );
  } catch {
    // No _prisma_migrations table yet: a new database.
    return false;
  } finally {
    await adapter.dispose();
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === "string" ? error : JSON.stringify(error);
}

/** Readiness: throws unless every migration of this build is recorded as finished. */
export async function assertMigrated(
  query: (sql: string) => Promise<unknown[]>,
  dir?: string,
): Promise<void> {
  const expected = (await readMigrations(dir)).migrationDirectories.map((d) => d.path);
  const rows = (await query(
    "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
  )) as { migration_name: string }[];
  const done = new Set(rows.map((r) => r.migration_name));
  const missing = expected.filter((name) => !done.has(name));
  if (missing.length > 0) throw new MigrationError(`pending migrations: ${missing.join(", ")}`);
}
