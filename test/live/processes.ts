import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inject } from "vitest";
import { openPostgres } from "../../src/db/database.ts";
import { databaseUrl } from "../helpers/postgres.ts";

/**
 * Storage for server processes: a new PostgreSQL database made from the migrated template
 * (with TEST_DATABASE_URL), else a fresh PGlite folder (the server migrates it on start).
 */
export async function serverStorage(): Promise<{
  env: Record<string, string>;
  url?: string;
  drop(): Promise<void>;
}> {
  const base = process.env.TEST_DATABASE_URL;
  const template = inject("postgresTemplate");
  if (base && template) {
    const name = `vexil_live_${randomBytes(6).toString("hex")}`;
    const admin = openPostgres(base);
    await admin.prisma.$executeRawUnsafe(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    const url = databaseUrl(base, name);
    return {
      env: { DATABASE_URL: url },
      url,
      async drop() {
        await admin.prisma.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.close();
      },
    };
  }
  const dir = await mkdtemp(join(tmpdir(), "vexil-live-"));
  return { env: { VEXIL_DATA_DIR: dir }, drop: () => rm(dir, { recursive: true, force: true }) };
}
