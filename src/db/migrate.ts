import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type { MigrationDirectory, MigrationList } from "@prisma/schema-engine-wasm";
import { withSchemaEngine } from "./schema-engine.ts";

export const PRISMA_DIR = new URL("../../prisma/", import.meta.url).pathname;
export const MIGRATIONS_DIR = join(PRISMA_DIR, "migrations");
const SCHEMA_PATH = join(PRISMA_DIR, "schema.prisma");
const NO_FILTERS = { externalTables: [], externalEnums: [] };

/** Raised when the database cannot be brought to the schema of this build; says what to do. */
export class MigrationError extends Error {}

export async function readPrismaSchema() {
  return { path: SCHEMA_PATH, content: await readFile(SCHEMA_PATH, "utf8") };
}

/** Loads `prisma/migrations` in the shape the schema engine expects (Prisma Migrate's layout). */
export async function readMigrations(dir = MIGRATIONS_DIR): Promise<MigrationList> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const migrationDirectories: MigrationDirectory[] = await Promise.all(
    names.map(async (name) => ({
      path: name,
      migrationFile: {
        path: "migration.sql",
        content: await readFile(join(dir, name, "migration.sql"), "utf8")
          .then((value) => ({ tag: "ok" as const, value }))
          .catch((e: Error) => ({ tag: "error" as const, value: e.message })),
      },
    })),
  );
  const lockPath = join(dir, "migration_lock.toml");
  const lockContent = await readFile(lockPath, "utf8").catch(() => null);
  return {
    baseDir: dir,
    lockfile: { path: "migration_lock.toml", content: lockContent },
    migrationDirectories,
    shadowDbInitScript: "",
  };
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
  return withSchemaEngine(adapterFactory, await readPrismaSchema(), async (engine) => {
    const migrationsList = await readMigrations(options.dir);
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
