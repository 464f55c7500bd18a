import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openPostgres } from "../../src/db/database.ts";
import { emptyPostgresDatabase } from "../helpers/postgres-url.ts";

/*
 * On PostgreSQL a transaction's BEGIN leaves with its first statement (src/db/begin-with-statement.ts):
 * one write instead of two, and the same transaction as before.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)("BEGIN sent with the transaction's first statement", () => {
  let scratch: Awaited<ReturnType<typeof emptyPostgresDatabase>>;
  let database: Database;
  let pool: pg.Pool;

  beforeAll(async () => {
    scratch = await emptyPostgresDatabase();
    database = openPostgres(scratch!.url);
    pool = database.pool!;
    await pool.query("CREATE TABLE note (id int PRIMARY KEY, text text NOT NULL)");
  });
  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  });

  /** Socket writes while `action` runs on `client` (a corked batch is one). */
  async function writesDuring<T>(client: pg.PoolClient, action: () => Promise<T>) {
    const socket = (
      client as unknown as { connection: { stream: Record<string, (...a: unknown[]) => unknown> } }
    ).connection.stream;
    let writes = 0;
    const originals = { _write: socket._write, _writev: socket._writev };
    for (const name of ["_write", "_writev"] as const) {
      const original = originals[name]!;
      socket[name] = (...args: unknown[]) => {
        writes += 1;
        return original.apply(socket, args);
      };
    }
    try {
      return { result: await action(), writes };
    } finally {
      Object.assign(socket, originals);
    }
  }

  const visibleElsewhere = async (id: number) =>
    (await pool.query("SELECT 1 FROM note WHERE id = $1", [id])).rowCount === 1;

  it("sends BEGIN and the first statement in one write, and the transaction holds them", async () => {
    const client = await pool.connect();
    try {
      const begin = await writesDuring(client, () => client.query("BEGIN"));
      expect(begin.writes).toBe(0);
      const first = await writesDuring(client, () =>
        client.query({ text: "INSERT INTO note VALUES ($1, $2) RETURNING id", values: [1, "one"] }),
      );
      expect(first.writes).toBe(1);
      expect(first.result.rows).toEqual([{ id: 1 }]);
      expect(await visibleElsewhere(1)).toBe(false);
      await client.query("ROLLBACK");
      expect(await visibleElsewhere(1)).toBe(false);

      await client.query("BEGIN");
      await client.query("INSERT INTO note VALUES ($1, $2)", [2, "two"]);
      expect(await visibleElsewhere(2)).toBe(false);
      await client.query("COMMIT");
      expect(await visibleElsewhere(2)).toBe(true);
    } finally {
      client.release();
    }
  });

  it("a failing first statement aborts the transaction, and the connection serves again", async () => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      await expect(client.query("INSERT INTO note VALUES ($1, $2)", [3, null])).rejects.toMatchObject({
        code: "23502",
      });
      await expect(client.query("INSERT INTO note VALUES ($1, $2)", [3, "three"])).rejects.toMatchObject({
        code: "25P02",
      });
      await client.query("ROLLBACK");
      expect(await visibleElsewhere(3)).toBe(false);
      await client.query("INSERT INTO note VALUES ($1, $2)", [3, "three"]);
      expect(await visibleElsewhere(3)).toBe(true);
    } finally {
      client.release();
    }
  });

  it("a BEGIN still waiting when its connection goes back is dropped: the next user is not in a transaction", async () => {
    const first = await pool.connect();
    await first.query("BEGIN");
    first.release();
    const next = await pool.connect();
    try {
      expect(next).toBe(first);
      await next.query("INSERT INTO note VALUES ($1, $2)", [4, "four"]);
      expect(await visibleElsewhere(4)).toBe(true);
    } finally {
      next.release();
    }
  });

  it("a BEGIN inside a transaction is sent as it is (PostgreSQL warns, nothing waits)", async () => {
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("INSERT INTO note VALUES ($1, $2)", [5, "five"]);
      const again = await writesDuring(client, () => client.query("BEGIN"));
      expect(again.writes).toBe(1);
      await client.query("COMMIT");
      expect(await visibleElsewhere(5)).toBe(true);
    } finally {
      client.release();
    }
  });

  it("Prisma's interactive transactions commit and roll back as before", async () => {
    await database.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("INSERT INTO note VALUES (6, 'six')");
    });
    await expect(
      database.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe("INSERT INTO note VALUES (7, 'seven')");
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await visibleElsewhere(6)).toBe(true);
    expect(await visibleElsewhere(7)).toBe(false);
  });
});
