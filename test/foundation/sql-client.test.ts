import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../../src/generated/prisma/client.ts";
import { directStatementsOf } from "../../src/shared/direct-statements.ts";
import { sqlOf } from "../../src/shared/sql.ts";
import { runWrite, sqlStateOf } from "../../src/shared/write.ts";
import { createTestApp, systemWriteContext, type TestApp } from "../helpers/app.ts";

/**
 * `sqlOf` (src/shared/sql.ts) answers what Prisma's `$queryRaw` / `$executeRaw` answer, sent
 * straight to the driver adapter (src/shared/direct-statements.ts): the values it sends and answers,
 * the transaction it runs in, and what a failing statement leaves.
 * (Writes past the API: the test is of the database layer itself.)
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const when = new Date("2026-11-26T18:01:02.345Z");

describe("sqlOf answers what $queryRaw answers", () => {
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
    const direct = await sqlOf(t.deps.db).query<Record<string, unknown>>(statement);
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
    // The fork's proof: Prisma's own pipeline answers the same values, of the same types.
    const [reference] = await t.deps.db.$queryRaw<Record<string, unknown>[]>(statement);
    expect(direct[0]).toStrictEqual(reference);
  });

  it("the rarer types answer as $queryRaw answers them, null or not", async () => {
    const statement = Prisma.sql`
      SELECT ${1.5}::float4 AS float4, ${"v"}::varchar(5) AS varchar, ${"c"}::char(2) AS bpchar,
             ${[when, null]}::timestamptz[] AS ts_array, ARRAY[${when}::date] AS date_array,
             ARRAY[${"1.25"}::numeric, NULL] AS numeric_array, ARRAY['{"a":1}'::jsonb] AS jsonb_array,
             (SELECT json_agg(x) FROM (SELECT 1 AS a, ${when}::timestamptz AS b) x) AS agg,
             ${"00000000-0000-4000-8000-000000000000"}::uuid AS uuid, ${5n} AS bigint_param,
             ${when} AS date_param, ${3} AS number_param, ${"text"} AS text_param,
             NULL::int AS null_int, NULL::bigint AS null_int8, NULL::timestamptz AS null_ts,
             NULL::jsonb AS null_jsonb, NULL::numeric AS null_numeric, NULL::boolean AS null_bool,
             '12:30'::time AS time_of_day`;
    const [direct] = await sqlOf(t.deps.db).query<Record<string, unknown>>(statement);
    const [reference] = await t.deps.db.$queryRaw<Record<string, unknown>[]>(statement);
    expect(direct).toStrictEqual(reference);
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

  it("a statement's error carries PostgreSQL's code", async () => {
    const error = await sqlOf(t.deps.db).query`SELECT 1/0`.catch((e: unknown) => e);
    expect(sqlStateOf(error)).toBe("22012");
  });
});

describe("inside runWrite, the statements run in the write's own transaction", () => {
  it("sent to the adapter transaction Prisma opened for the write, not through $queryRaw", async () => {
    const [inWrite, outside] = await runWrite(systemWriteContext(t), async (w) => [
      await directStatementsOf(w.tx),
      await directStatementsOf(t.deps.db),
    ]);
    expect(inWrite).toBeDefined();
    expect(inWrite).not.toBe(outside);
  });

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

  it("concurrent writes each keep to their own transaction, also while they queue for a connection", async () => {
    // 30 at once: three times the pool, so most wait for a connection before Prisma starts theirs.
    const values = Array.from({ length: 30 }, (_, i) => `concurrent-${i}`);
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
    expect(await t.deps.db.tag.count({ where: { value: { startsWith: "concurrent-" } } })).toBe(30);
  });

  it("a statement after the transaction ended is refused, not sent on a connection another holds", async () => {
    const kept = await runWrite(systemWriteContext(t), async (w) => sqlOf(w.tx));
    await expect(kept.query`SELECT 1`).rejects.toMatchObject({ code: "P2028" });
  });
});

describe("a failing statement never poisons its connection", () => {
  // Long enough to be a named prepared statement (src/db/database.ts, statementName).
  const failing = (divisor: number) => sqlOf(t.deps.db).query<{ n: number }>`
    SELECT (100 / ${divisor}::int)::int AS n FROM (SELECT 1) AS one_row_for_the_failing_statement`;

  it("outside a transaction: the same prepared statement fails, then answers, on every connection", async () => {
    for (let round = 0; round < 3; round++) {
      await Promise.all(Array.from({ length: 12 }, () => expect(failing(0)).rejects.toThrow()));
      const answers = await Promise.all(Array.from({ length: 12 }, () => failing(4)));
      expect(answers.flat()).toEqual(Array.from({ length: 12 }, () => ({ n: 25 })));
    }
  });

  it("inside runWrite: the failed transaction rolls back whole and the next writes commit", async () => {
    const attempt = (value: string, divisor: number) =>
      runWrite(systemWriteContext(t), async (w) => {
        await sqlOf(w.tx).execute`INSERT INTO "Tag" (type, value) VALUES ('simple', ${value})`;
        await sqlOf(w.tx).query`SELECT (1 / ${divisor}::int) AS n FROM "Tag" WHERE value = ${value}`;
      });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => expect(attempt(`poison-failed-${i}`, 0)).rejects.toThrow()),
    );
    await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(`poison-then-${i}`, 1)));
    expect(await t.deps.db.tag.count({ where: { value: { startsWith: "poison-failed-" } } })).toBe(0);
    expect(await t.deps.db.tag.count({ where: { value: { startsWith: "poison-then-" } } })).toBe(12);
  });
});
