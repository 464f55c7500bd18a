import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, assertMigrated, MIGRATIONS_DIR } from "../../src/db/migrate.ts";
import { openPglite, openPgliteFolder } from "../../src/db/pglite-database.ts";
import { PGLITE_TEMPLATE_DIR } from "../../src/db/pglite-thread.ts";
import { createTestDatabase, emptyPglite } from "../helpers/database.ts";
import { startServerProcess } from "../helpers/server-process.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vexil-migrations-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function copyOfMigrations(name: string) {
  const copy = join(dir, name);
  await cp(MIGRATIONS_DIR, copy, { recursive: true });
  return copy;
}

// The first test migrates a fresh database from scratch; the others start from a migrated copy
// (the run's template, migrated from the same folder), as a database a release finds. The WASM
// schema engine takes seconds each time, more on a busy machine.
describe("migrations (WASM schema engine, Prisma Migrate layout)", { timeout: 180_000 }, () => {
  it("applies every migration once; applying again is a no-op", async () => {
    const db = openPglite(await emptyPglite());
    const first = await applyMigrations(db.adapterFactory);
    expect(first.length).toBeGreaterThan(0);
    expect(await applyMigrations(db.adapterFactory)).toEqual([]);
    await assertMigrated((sql) => db.prisma.$queryRawUnsafe(sql));
    const rows = await db.prisma.$queryRawUnsafe<{ migration_name: string }[]>(
      "SELECT migration_name FROM _prisma_migrations ORDER BY migration_name",
    );
    expect(rows.map((r) => r.migration_name)).toEqual(first);
    await db.close();
  });

  it("refuses a migration edited after it was applied, saying what to do", async () => {
    const migrations = await copyOfMigrations("edited");
    const db = await createTestDatabase();
    expect(await applyMigrations(db.adapterFactory, { dir: migrations })).toEqual([]);
    const [firstName] = (await readdir(migrations, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    const file = join(migrations, firstName!, "migration.sql");
    await writeFile(file, `${await readFile(file, "utf8")}\n-- edited\n`);
    await expect(applyMigrations(db.adapterFactory, { dir: migrations })).rejects.toThrow(
      /changed after being applied.*Restore the original migration\.sql/,
    );
    await db.close();
  });

  it("stops at a failing migration and refuses to continue until it is resolved", async () => {
    const migrations = await copyOfMigrations("failing");
    await mkdir(join(migrations, "29990101000000_broken"));
    await writeFile(
      join(migrations, "29990101000000_broken", "migration.sql"),
      "ALTER TABLE no_such_table ADD x int;",
    );
    const db = await createTestDatabase();
    await expect(applyMigrations(db.adapterFactory, { dir: migrations })).rejects.toThrow(
      /Database migration failed/,
    );
    await expect(applyMigrations(db.adapterFactory, { dir: migrations })).rejects.toThrow(
      /29990101000000_broken failed earlier/,
    );
    await expect(assertMigrated((sql) => db.prisma.$queryRawUnsafe(sql), migrations)).rejects.toThrow(
      /pending migrations: 29990101000000_broken/,
    );
    await db.close();
  });

  it("stops start-up with a message when the database was migrated by a newer build", async () => {
    const dataDir = join(dir, "newer-data");
    const env = {
      VEXIL_DATA_DIR: dataDir,
      INIT_ADMIN_API_TOKENS: "*:*.x",
      INIT_ADMIN_PASSWORD: "Some-Password-1",
    };
    // The data folder as a first start makes it (a copy of the build's migrated template).
    const db = await openPgliteFolder(dataDir, { pgliteTemplate: PGLITE_TEMPLATE_DIR });
    // Direct write: a migration only a newer build has; no API writes the migrations table.
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
       VALUES ('future', 'x', '29990101000000_from_the_future', now(), now(), 1)`,
    );
    await db.close();
    await expect(startServerProcess({ ...env, DATABASE_URL: "" })).rejects.toThrow(
      /migrations this build does not know \(29990101000000_from_the_future\)/,
    );
  });
});
