// The server's CPU per hand-written statement and per write transaction: through the Prisma
// client (`$queryRaw`, `$transaction`) against `sqlOf` (src/shared/sql.ts, the driver adapter
// directly, inside the same Prisma transaction). One connection, statements one after another,
// so the figure is this process's CPU (process.cpuUsage), not the database's.
//   npx tsx bench/statements.ts   (BENCH_DATABASE_URL for PostgreSQL; BENCH_STATEMENT_RUNS 3000)
import { EVENT_HOOKS } from "../src/event-hooks.ts";
import { Prisma } from "../src/generated/prisma/client.ts";
import { sqlOf } from "../src/shared/sql.ts";
import { runWrite } from "../src/shared/write.ts";
import { openBenchDatabase } from "./bench-database.ts";
import { prepareBenchDatabase } from "./bench-server.ts";

const RUNS = Number(process.env.BENCH_STATEMENT_RUNS ?? 3000);
const log = (line: string) =>
  console.log(`[bench:statements ${new Date().toISOString().slice(11, 19)}] ${line}`);

const database = await openBenchDatabase("vexil_bench_statements");
const { config } = await prepareBenchDatabase(database, {});
const db = database.prisma;
const ctx = {
  db,
  bus: { publish: () => undefined } as never,
  eventHooks: EVENT_HOOKS,
  principal: null,
  config,
  now: () => new Date(),
};
// A statement of the shape the write path sends: values in, a few typed columns out.
const statement = (i: number) =>
  Prisma.sql`SELECT ${i}::int AS n, now() AS at, ${"flag-name"}::text AS name, ${i % 2 === 0} AS on`;

/** CPU (ms) of this process per run of `op`, after as many runs to warm up. */
async function cpuPerRun(op: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(RUNS, 500); i++) await op(i);
  const before = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) await op(i);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / RUNS;
}

const rows: Record<string, number | string>[] = [];
for (let round = 1; round <= 2; round++) {
  const prismaStatement = await cpuPerRun((i) => db.$queryRaw(statement(i)));
  const directStatement = await cpuPerRun((i) => sqlOf(db).query(statement(i)));
  const prismaWrite = await cpuPerRun((i) =>
    db.$transaction(async (tx) => {
      await tx.$queryRaw(statement(i));
      await tx.$queryRaw(statement(i + 1));
      await tx.$queryRaw(statement(i + 2));
    }),
  );
  const directWrite = await cpuPerRun((i) =>
    runWrite(ctx, async (w) => {
      await sqlOf(w.tx).query(statement(i));
      await sqlOf(w.tx).query(statement(i + 1));
      await sqlOf(w.tx).query(statement(i + 2));
    }),
  );
  const row = {
    round,
    "statement, $queryRaw": prismaStatement.toFixed(3),
    "statement, sqlOf": directStatement.toFixed(3),
    "3-statement write, $transaction + $queryRaw": prismaWrite.toFixed(3),
    "3-statement write, runWrite + sqlOf": directWrite.toFixed(3),
  };
  rows.push(row);
  log(`round ${round} (ms of CPU per run, ${RUNS} runs): ${JSON.stringify(row)}`);
}
console.table(rows);
await database.close();
