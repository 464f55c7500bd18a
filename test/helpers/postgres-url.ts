import { randomBytes } from "node:crypto";
import { openPostgres } from "../../src/db/database.ts";
import { databaseUrl } from "./postgres.ts";

/** With TEST_DATABASE_URL: an empty database on that server (for a server process to migrate). */
export async function emptyPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return null;
  const name = `vexil_proc_${randomBytes(6).toString("hex")}`;
  const admin = openPostgres(url);
  await admin.prisma.$executeRawUnsafe(`CREATE DATABASE ${name}`);
  return {
    url: databaseUrl(url, name),
    async drop() {
      await admin.prisma.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}
