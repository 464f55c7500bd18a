import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { inject } from "vitest";
import {
  type AdapterWrapper,
  createPglite,
  type Database,
  openPglite,
  openPostgres,
} from "../../src/db/database.ts";
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
  const file = inject("pgliteTemplate");
  if (!file) throw new Error("global setup did not provide a database template");
  const data = await readFile(file);
  const pglite = await createPglite("memory://", { loadDataDir: new Blob([data]) });
  return openPglite(pglite, wrap);
}
