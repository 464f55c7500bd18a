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
    await expect(kept.query`SELECT 1`).rejects.toThrow("no longer open");
  });
});

describe("a write of statements only runs in a transaction of the driver adapter (D-145)", () => {
  const tagCount = (value: string) => t.deps.db.tag.count({ where: { value } });

  it("commits its statements, and rolls all of them back on an error", async () => {
    await runWrite(
      systemWriteContext(t),
      (w) => sqlOf(w.tx).execute`INSERT INTO "Tag" (type, value) VALUES ('simple', 'only-committed')`,
      { statementsOnly: true },
    );
    expect(await tagCount("only-committed")).toBe(1);
    const failure = new Error("roll back");
    await expect(
      runWrite(
        systemWriteContext(t),
        async (w) => {
          await sqlOf(w.tx).execute`INSERT INTO "Tag" (type, value) VALUES ('simple', 'only-rolled-back')`;
          throw failure;
        },
        { statementsOnly: true },
      ),
    ).rejects.toBe(failure);
    expect(await tagCount("only-rolled-back")).toBe(0);
  });

  it("a model query on its transaction rolls it back and runs the whole work again in Prisma's, once", async () => {
    const attempts: string[] = [];
    const value = await runWrite(
      systemWriteContext(t),
      async (w) => {
        attempts.push("attempt");
        await sqlOf(w.tx).execute`INSERT INTO "Tag" (type, value) VALUES ('simple', 'only-then-model')`;
        const tag = await w.tx.tag.findUniqueOrThrow({
          where: { type_value: { type: "simple", value: "only-then-model" } },
        });
        return tag.value;
      },
      { statementsOnly: true },
    );
    expect(value).toBe("only-then-model");
    expect(attempts).toHaveLength(2);
    // The first attempt's insert was rolled back: a second one would have been a 409.
    expect(await tagCount("only-then-model")).toBe(1);
  });

  it("gives every connection back: more writes at once than the pool holds all finish", async () => {
    const values = Array.from({ length: 30 }, (_, i) => `only-pool-${i}`);
    await Promise.all(
      values.map((value) =>
        runWrite(
          systemWriteContext(t),
          (w) => sqlOf(w.tx).execute`INSERT INTO "Tag" (type, value) VALUES ('simple', ${value})`,
          { statementsOnly: true },
        ),
      ),
    );
    expect(await t.deps.db.tag.count({ where: { value: { startsWith: "only-pool-" } } })).toBe(30);
    // A failing write gives its connection back too.
    await Promise.all(
      values.map((value) =>
        expect(
          runWrite(
            systemWriteContext(t),
            (w) => sqlOf(w.tx).execute`INSERT INTO "Tag" (type, value) VALUES ('simple', ${value})`,
            { statementsOnly: true },
          ),
        ).rejects.toThrow(),
      ),
    );
    expect(await tagCount("only-pool-0")).toBe(1);
  });
});
