// `npm run db:migrate`: applies pending migrations to the configured database (PGlite folder
// or DATABASE_URL), exactly as start-up does. Applying twice is a no-op.
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/db/database.ts";
import { applyMigrations } from "../src/db/migrate.ts";
import { MigrationError } from "../src/db/migration-error.ts";

const config = loadConfig();
const database = await openDatabase(config.database);
try {
  const applied = await applyMigrations(database.adapterFactory);
  console.log(applied.length ? `applied: ${applied.join(", ")}` : "database is up to date");
} catch (error) {
  console.error(error instanceof MigrationError ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
