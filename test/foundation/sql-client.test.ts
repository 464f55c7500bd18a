import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../../src/generated/prisma/client.ts";
import { sqlOf } from "../../src/shared/sql.ts";
import { runWrite } from "../../src/shared/write.ts";
import { createTestApp, systemWriteContext, type TestApp } from "../helpers/app.ts";

/**
 * src/db/sql.ts sends hand-written statements to the driver adapter directly. It must be a
 * drop-in for `$queryRaw`: the same values in and out, and, inside `runWrite`, the same
 * transaction as the Prisma client's model queries.
 * (Writes past the API: the test is of the database layer itself.)
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const when = new Date("2026-11-26T18:01:02.345Z");

describe("statements past the Prisma client answer what $queryRaw answers", () => {
  it("every column type the code reads, with every parameter type it sends", async () => {
    const statement = Prisma.sql`
      SELECT ${1}::int AS int4, ${9007199254740993n}::bigint AS int8, count(*) AS counted,
             ${"text"}::text AS text, ${true}::boolean AS bool, ${2.5}::float8 AS float8,
             ${"12.50"}::numeric AS numeric, ${when}::timestamptz AS timestamptz,
             ${when}::timestamp(3) AS timestamp3, ${when}::date AS date,
             ${JSON.stringify({ a: [1, "x"] })}::jsonb AS jsonb, ${JSON.stringify([null])}::json AS json,
             ${{ b: { c: true } }}::jsonb AS object_param,
             ${["a", "b"]}::text[] AS text_array, ${[1, 2]}::int[] AS int_array,
             ARRAY[${when}::timestamptz] AS timestamptz_array, ${[3n, 4n]}::bigint[] AS int8_array,
             ${null}::text AS null_text, ${Buffer.from("bytes")}::bytea AS bytea,
             gen_random_uuid() IS NOT NULL AS uuid_made
        FROM (SELECT 1) one`;
    const viaPrisma = await t.deps.db.$queryRaw<Record<string, unknown>[]>(statement);
    const direct = await sqlOf(t.deps.db).query<Record<string, unknown>>(statement);
    expect(direct).toEqual(viaPrisma);
    expect(direct[0]).toMatchObject({
      int4: 1,
      int8: 9007199254740993n,
      counted: 1n,
      timestamptz: when,
      jsonb: { a: [1, "x"] },
      object_param: { b: { c: true } },
      text_array: ["a", "b"],
      null_text: null,
    });
    expect(direct[0]?.numeric).toBeInstanceOf(Prisma.Decimal);
  });

  it("tagged like $queryRaw, fragments joined; execute answers the rows changed", async () => {
    const names = ["sql-client-1", "sql-client-2"];
    const changed = await sqlOf(t.deps.db).execute`
      INSERT INTO "Tag" (type, value) SELECT 'simple', v FROM unnest(${names}::text[]) v`;
    expect(changed).toBe(2);
    const rows = await sqlOf(t.deps.db).query<{ value: string }>`
      SELECT value FROM "Tag" WHERE value IN (${Prisma.join(names)}) ORDER BY value`;
    expect(rows.map((r) => r.value)).toEqual(names);
  });

  it("a statement's error carries PostgreSQL's code, as $queryRaw's does", async () => {
    await expect(sqlOf(t.deps.db).query`SELECT 1/0`).rejects.toMatchObject({
      cause: { originalCode: "22012" },
    });
  });
});

describe("inside runWrite, the statements run in the write's own transaction", () => {
  it("they see the transaction's model writes, and a rollback undoes them with the rest", async () => {
    const failure = new Error("roll back");
    await expect(
      runWrite(systemWriteContext(t), async (w) => {
        await w.tx.tag.create({ data: { type: "simple", value: "in-tx-model" } });
        const seen = await sqlOf(w.tx).query<{ n: number }>`
          SELECT count(*)::int AS n FROM "Tag" WHERE value = 'in-tx-model'`;
        expect(seen).toEqual([{ n: 1 }]);
        await sqlOf(w.tx).execute`INSERT INTO "Tag" (type, value) VALUES ('simple', 'in-tx-raw')`;
        throw failure;
      }),
    ).rejects.toBe(failure);
    const left = await t.deps.db.tag.count({ where: { value: { in: ["in-tx-model", "in-tx-raw"] } } });
    expect(left).toBe(0);
  });

  it("concurrent writes each keep to their own transaction", async () => {
    const values = Array.from({ length: 6 }, (_, i) => `concurrent-${i}`);
    const seen = await Promise.all(
      values.map((value) =>
        runWrite(systemWriteContext(t), async (w) => {
          await sqlOf(w.tx).execute`INSERT INTO "Tag" (type, value) VALUES ('simple', ${value})`;
          const rows = await w.tx.tag.findMany({ where: { value: { startsWith: "concurrent-" } } });
          return rows.map((r) => r.value);
        }),
      ),
    );
    // Each transaction sees its own insert (and perhaps those committed before it), never an
    // uncommitted insert of another.
    for (const [i, visible] of seen.entries()) expect(visible).toContain(values[i]);
    expect(await t.deps.db.tag.count({ where: { value: { startsWith: "concurrent-" } } })).toBe(6);
  });

  it("a statement after the transaction ended is refused, not sent on a connection another holds", async () => {
    const kept = await runWrite(systemWriteContext(t), async (w) => sqlOf(w.tx));
    await expect(kept.query`SELECT 1`).rejects.toThrow("no longer open");
  });
});
