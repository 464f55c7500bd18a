import type { PGlite } from "@electric-sql/pglite";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/database.ts";
import { openPglite } from "../../src/db/pglite-database.ts";
import { StatementCache } from "../../src/db/pglite-statements.ts";
import { emptyPglite } from "../helpers/database.ts";

/**
 * In-process PGlite behind Prisma runs named prepared statements (src/db/pglite-statements.ts):
 * parsed once, run in one round trip. Checked through Prisma, against what the session holds.
 */
let pglite: PGlite;
let db: Database;
beforeAll(async () => {
  pglite = await emptyPglite();
});
afterAll(() => pglite.close());
// Each test: a session with no statements, and a client with an empty cache of 3.
beforeEach(async () => {
  await pglite.exec("DEALLOCATE ALL; DROP TABLE IF EXISTS note");
  db = openPglite(pglite, undefined, new StatementCache(3));
});
afterEach(() => db.prisma.$disconnect());

const held = async () =>
  (
    await pglite.query<{ statement: string; runs: number }>(
      "SELECT statement, (generic_plans + custom_plans)::int AS runs FROM pg_prepared_statements ORDER BY statement",
    )
  ).rows;

describe("in-process PGlite's prepared statements", () => {
  it("parses a statement once and runs it by name after", async () => {
    for (const n of [1, 2, 3]) {
      expect(await db.prisma.$queryRawUnsafe("SELECT $1::int + 1 AS next", n)).toEqual([{ next: n + 1 }]);
    }
    expect(await held()).toEqual([{ statement: "SELECT $1::int + 1 AS next", runs: 3 }]);
  });

  it("keeps at most its limit, closing the least recently used", async () => {
    for (const n of [1, 2, 3, 4, 5]) await db.prisma.$queryRawUnsafe(`SELECT ${n} AS n`);
    await db.prisma.$queryRawUnsafe("SELECT 3 AS n");
    await db.prisma.$queryRawUnsafe("SELECT 6 AS n");
    expect((await held()).map((s) => s.statement)).toEqual([
      "SELECT 3 AS n",
      "SELECT 5 AS n",
      "SELECT 6 AS n",
    ]);
  });

  it("answers after the session dropped its statements (DEALLOCATE ALL)", async () => {
    expect(await db.prisma.$queryRawUnsafe("SELECT 'before' AS at")).toEqual([{ at: "before" }]);
    await pglite.exec("DEALLOCATE ALL");
    expect(await db.prisma.$queryRawUnsafe("SELECT 'before' AS at")).toEqual([{ at: "before" }]);
    expect(await db.prisma.$queryRawUnsafe("SELECT 'after' AS at")).toEqual([{ at: "after" }]);
  });

  it("gives PostgreSQL's error, rolls a failed transaction back whole and runs on", async () => {
    await db.prisma.$executeRawUnsafe("CREATE TABLE note (name text PRIMARY KEY)");
    const insert = (name: string) => db.prisma.$executeRawUnsafe("INSERT INTO note VALUES ($1)", name);
    await expect(db.prisma.$transaction([insert("a"), insert("b"), insert("a")])).rejects.toMatchObject({
      code: "P2010",
      meta: { driverAdapterError: { cause: { originalCode: "23505" } } },
    });
    await expect(db.prisma.$queryRawUnsafe("SELECT broken FROM")).rejects.toMatchObject({
      meta: { driverAdapterError: { cause: { originalCode: "42601" } } },
    });
    expect(await db.prisma.$queryRawUnsafe("SELECT count(*)::int AS n FROM note")).toEqual([{ n: 0 }]);
    await db.prisma.$transaction([insert("a"), insert("b")]);
    expect(await db.prisma.$queryRawUnsafe("SELECT name FROM note ORDER BY name")).toEqual([
      { name: "a" },
      { name: "b" },
    ]);
  });

  it("runs interactive transactions: a throw rolls back, a return commits, a query after either is refused", async () => {
    await db.prisma.$executeRawUnsafe("CREATE TABLE note (name text PRIMARY KEY)");
    const failed = db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("INSERT INTO note VALUES ('dropped')");
      throw new Error("changed my mind");
    });
    await expect(failed).rejects.toThrow("changed my mind");
    let kept: { $queryRawUnsafe(sql: string): Promise<unknown> } | undefined;
    await db.prisma.$transaction(async (tx) => {
      kept = tx;
      await tx.$executeRawUnsafe("INSERT INTO note VALUES ('kept')");
    });
    await expect(kept?.$queryRawUnsafe("SELECT 1")).rejects.toThrow();
    expect(await db.prisma.$queryRawUnsafe("SELECT name FROM note")).toEqual([{ name: "kept" }]);
    expect(await db.prisma.$executeRawUnsafe("UPDATE note SET name = 'renamed'")).toBe(1);
  });

  it("sends parameters of each type as PGlite's own query does", async () => {
    const at = new Date("2026-11-29T12:34:56.789Z");
    const [row] = await db.prisma.$queryRawUnsafe<Record<string, unknown>[]>(
      "SELECT $1::jsonb AS doc, $2::bytea AS bytes, $3::timestamptz AS at, $4::text[] AS names, $5::text AS nothing",
      { a: [1, "two"] },
      Buffer.from([0, 1, 255]),
      at,
      ["x", "y,z"],
      null,
    );
    expect(row).toEqual({
      doc: { a: [1, "two"] },
      bytes: new Uint8Array([0, 1, 255]),
      at,
      names: ["x", "y,z"],
      nothing: null,
    });
  });
});
