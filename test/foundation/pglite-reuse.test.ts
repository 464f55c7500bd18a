import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestApp } from "../helpers/app.ts";
import { addStrategy, createFlag, enableFlag, userWithPat } from "../helpers/builders.ts";
import { createTestDatabase, openTemplateCopy } from "../helpers/database.ts";
import { reuse } from "../helpers/pglite-reuse.ts";

/*
 * A test file's PGlite may be one an earlier file used (test/helpers/pglite-reuse.ts): it must
 * then be indistinguishable from a new copy of the template, whatever the earlier file did.
 */

/** Every row of every table (in a fixed order) and every sequence's position. */
async function contents(pglite: PGlite) {
  const tables = await pglite.query<{ name: string }>(
    `SELECT quote_ident(relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY relname`,
  );
  const rows: Record<string, unknown> = {};
  for (const { name } of tables.rows) {
    const all = await pglite.query<{ rows: unknown }>(
      `SELECT COALESCE(json_agg(t ORDER BY t::text), '[]') AS rows FROM ${name} t`,
    );
    rows[name] = all.rows[0]?.rows;
  }
  const sequences = await pglite.query(
    "SELECT sequencename, last_value::text FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1",
  );
  return { rows, sequences: sequences.rows };
}

/** What a session may leave behind besides rows. */
async function session(pglite: PGlite) {
  const result = await pglite.query(
    `SELECT current_setting('TimeZone') AS "timeZone",
            (SELECT count(*)::int FROM pg_locks WHERE locktype = 'advisory') AS "advisoryLocks",
            (SELECT count(*)::int FROM pg_prepared_statements WHERE from_sql) AS "preparedStatements",
            pg_current_xact_id_if_assigned() IS NULL AS "noWriteUnderWay"`,
  );
  return result.rows[0];
}

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))("a PGlite used again by another test file", () => {
  let fresh: PGlite;
  beforeAll(async () => {
    fresh = await openTemplateCopy(inject("pgliteBootstrappedTemplate") as string);
  });
  afterAll(() => fresh?.close());

  it("has the rows, sequences and session of a new copy of the template", async () => {
    const expected = await contents(fresh);
    const freshSession = await session(fresh);

    const t = await createTestApp();
    const db = t.database.pglite as PGlite;
    await createFlag(t, "left-behind");
    await addStrategy(t, "left-behind", { name: "default" });
    await enableFlag(t, "left-behind", "development");
    await userWithPat(t, "left-behind-user", "Viewer");
    const origins = { frontendApiOrigins: ["https://a.example"] };
    expect((await t.rest("POST", "/api/admin/ui-config/cors", origins)).status).toBeLessThan(300);
    // A large table (truncated, not deleted from), a session setting, a lock and an open
    // transaction: what a file that failed half-way may leave.
    await db.exec(`INSERT INTO "Event" (type, "createdBy", "createdAt")
                   SELECT 'feature-created', 'bulk', now() FROM generate_series(1, 5000)`);
    await db.exec("SET TIME ZONE 'Asia/Tokyo'; SELECT pg_advisory_lock(42)");
    await db.exec(
      "BEGIN; PREPARE leftover AS SELECT 1; INSERT INTO \"TagType\" (name) VALUES ('uncommitted')",
    );
    expect((await contents(db)).rows).not.toEqual(expected.rows);

    const restoredBefore = reuse.restored;
    await t.close();
    expect(reuse.restored).toBe(restoredBefore + 1);
    // What the closed app still holds reaches nothing: the next file's data is not its own.
    expect(() => db.query("SELECT 1")).toThrow(TypeError);

    const next = await createTestDatabase(undefined, { bootstrapped: true });
    try {
      const pglite = next.pglite as PGlite;
      expect(await contents(pglite)).toEqual(expected);
      expect(await session(pglite)).toEqual(freshSession);
      // Except for what the app's client prepared, kept for the next client (pglite-statements.ts).
      const kept = await pglite.query("SELECT 1 FROM pg_prepared_statements WHERE NOT from_sql");
      expect(kept.rows.length).toBeGreaterThan(0);
      // And it works as a new one does: the bootstrapped admin can create a flag.
      await pglite.query(`INSERT INTO "Feature" (name, "projectId") VALUES ('after-reuse', 'default')`);
    } finally {
      await next.close();
    }
  });

  it("does not grow file after file", async () => {
    const sizes = async () => {
      const db = await createTestDatabase(undefined, { bootstrapped: true });
      const pglite = db.pglite as PGlite;
      await pglite.exec(`UPDATE "RolePermission" SET "roleId" = "roleId"; UPDATE "User" SET name = name`);
      const result = await pglite.query(
        `SELECT relname, pg_total_relation_size(c.oid) AS bytes FROM pg_class c
           JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY relname`,
      );
      await db.close();
      return result.rows;
    };
    await sizes();
    const settled = await sizes();
    await sizes();
    await sizes();
    expect(await sizes()).toEqual(settled);
  });
});
