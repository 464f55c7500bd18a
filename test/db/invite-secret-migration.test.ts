// The migration that keeps only the hash of an invite link's secret: links made before it keep
// working with the secret their holders have, keep their sign-ups, and are no longer stored in
// plain text.
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openPostgres } from "../../src/db/database.ts";
import { applyMigrations, MIGRATIONS_DIR, readMigrations } from "../../src/db/migrate.ts";
import { openPglite } from "../../src/db/pglite-database.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { emptyPglite } from "../helpers/database.ts";
import { emptyPostgresDatabase } from "../helpers/postgres-url.ts";

const HASHES = "20261128223153_invite_secret_hashes";
const OLD = "0123456789abcdef0123456789abcdef";
const OLDER = "fedcba9876543210fedcba9876543210";
const STRONG = "Sign-Up-Passw0rd!";
const TOKENS = "/api/admin/invite-link/tokens";

let dir: string;
let t: TestApp;
let postgres: Awaited<ReturnType<typeof emptyPostgresDatabase>>;

/** The migrations before HASHES, as a folder of their own. */
async function migrationsBeforeHashes(): Promise<string> {
  const copy = join(dir, "migrations");
  await cp(MIGRATIONS_DIR, copy, { recursive: true });
  const { migrationDirectories } = await readMigrations(copy);
  for (const m of migrationDirectories.filter((m) => m.path >= HASHES)) {
    await rm(join(copy, m.path), { recursive: true });
  }
  return copy;
}

/** Two links as the previous layout stored them (secret as key), one with a sign-up. */
async function writeOldLinks(db: Database) {
  // Direct write: rows in the layout before the migration, which no running version writes.
  const sql = (text: string) => db.prisma.$executeRawUnsafe(text);
  await sql(`INSERT INTO "Role" (name, type) VALUES ('Viewer', 'root') ON CONFLICT DO NOTHING`);
  await sql(`INSERT INTO "PublicSignupToken" (secret, name, "expiresAt", "roleId", "createdAt")
             SELECT '${OLD}', 'Old link', timestamp '2099-01-01', id, timestamp '2026-01-02' FROM "Role" WHERE name = 'Viewer'`);
  await sql(`INSERT INTO "PublicSignupToken" (secret, name, "expiresAt", "roleId", "createdAt")
             SELECT '${OLDER}', 'Older link', timestamp '2099-01-01', id, timestamp '2026-01-01' FROM "Role" WHERE name = 'Viewer'`);
  await sql(
    `INSERT INTO "User" (id, email, name, "rootRole") VALUES (500, 'early@example.com', 'Early', 'Viewer')`,
  );
  await sql(`INSERT INTO "PublicSignupTokenUser" (secret, "userId") VALUES ('${OLD}', 500)`);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vexil-invite-migration-"));
  postgres = await emptyPostgresDatabase();
  const db = postgres ? openPostgres(postgres.url) : openPglite(await emptyPglite());
  await applyMigrations(db.adapterFactory, { dir: await migrationsBeforeHashes() });
  await writeOldLinks(db);
  expect(await applyMigrations(db.adapterFactory)).toContain(HASHES);
  t = await createTestApp({}, { database: db });
}, 180_000);
afterAll(async () => {
  await t?.close();
  await postgres?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe("invite links made before their secrets were hashed", () => {
  it("are stored without their secret, numbered by creation, and keep their sign-ups", async () => {
    const rows = await t.database.prisma.$queryRawUnsafe<{ row: unknown }[]>(
      `SELECT to_jsonb(l) AS row FROM "PublicSignupToken" l UNION ALL SELECT to_jsonb(u) FROM "PublicSignupTokenUser" u`,
    );
    expect(JSON.stringify(rows)).not.toContain(OLD);
    expect(JSON.stringify(rows)).not.toContain(OLDER);
    const list = await t.rest("GET", TOKENS);
    expect(list.status).toBe(200);
    expect(list.body.tokens.map((l: { id: number; name: string }) => [l.id, l.name])).toEqual([
      [2, "Old link"],
      [1, "Older link"],
    ]);
    expect(list.body.tokens[0].users).toEqual([
      expect.objectContaining({ id: 500, email: "early@example.com" }),
    ]);
  });

  it("still work with the secret their holders have: validate, sign up, manage by secret", async () => {
    expect((await t.rest("GET", `/invite/${OLD}/validate`, undefined, null)).status).toBe(200);
    const signup = await t.rest(
      "POST",
      `/invite/${OLD}/signup`,
      { email: "late@example.com", name: "Late", password: STRONG },
      null,
    );
    expect(signup.status).toBe(200);
    const link = await t.rest("GET", `${TOKENS}/${OLD}`);
    expect(link.body.users.map((u: { email: string }) => u.email)).toEqual([
      "early@example.com",
      "late@example.com",
    ]);
    expect((await t.rest("PUT", `${TOKENS}/${OLDER}`, { enabled: false })).body.enabled).toBe(false);
    expect((await t.rest("GET", `/invite/${OLDER}/validate`, undefined, null)).status).toBe(400);
  });
});
