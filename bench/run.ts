// `npm run bench`: generates the dataset of issue 5 into PGlite (default) or PostgreSQL
// (BENCH_DATABASE_URL), starts a real Vexil server on 127.0.0.1, drives each search scenario
// with autocannon, and prints throughput and p50/p99 per scenario plus EXPLAIN ANALYZE plans.
//
// Options (environment): BENCH_DATABASE_URL (a PostgreSQL server URL; the database
// BENCH_DATABASE_NAME on it, default `vexil_bench`, is dropped and re-created), BENCH_FLAGS (10000), BENCH_PROJECTS (20),
// BENCH_EVENTS (1000000), BENCH_DURATION seconds per scenario (5), BENCH_CONNECTIONS (levels, default 2,8),
// BENCH_ONLY (substring of scenario names, or a group: "flag search", "event search"), BENCH_REUSE=1 (keep an existing PostgreSQL dataset).
// BENCH_EXPLAIN=0 skips the plans. Results: bench/results/search.json (bench/results.ts).
import autocannon from "autocannon";
import { type Database, openPostgres } from "../src/db/database.ts";
import { createPglite } from "../src/db/pglite.ts";
import { openPglite } from "../src/db/pglite-database.ts";
import { rollUpEventCounts } from "../src/modules/events/event-counts.job.ts";
import { prepareBenchDatabase, runBench, serveBenchDatabase } from "./bench-server.ts";
import { BENCH_USER_TOKEN, generateDataset } from "./dataset.ts";
import { explainHotQueries } from "./explain.ts";
import { databaseKind, type ScenarioResult, saveResults, scenarioResult, startLoadMeter } from "./results.ts";
import { type Scenario, scenarios } from "./scenarios.ts";

const ADMIN_TOKEN = "*:*.bench-admin-secret-0123456789abcdef";
const env = process.env;
const size = {
  flags: Number(env.BENCH_FLAGS ?? 10_000),
  projects: Number(env.BENCH_PROJECTS ?? 20),
  events: Number(env.BENCH_EVENTS ?? 1_000_000),
};
const duration = Number(env.BENCH_DURATION ?? 5);
/**
 * Each scenario runs once per concurrency level: the lowest is the one the latency targets are
 * judged at (a busy server, one caller per core), the highest shows throughput at saturation,
 * where p99 is mostly queueing (callers × CPU per request ÷ cores).
 */
const connectionLevels = (env.BENCH_CONNECTIONS ?? "2,8").split(",").map(Number);
const log = (m: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${m}`);

async function openBenchDatabase(): Promise<{ database: Database; fresh: boolean }> {
  const url = env.BENCH_DATABASE_URL;
  if (!url) return { database: openPglite(await createPglite("memory://")), fresh: true };
  const admin = openPostgres(url);
  const target = new URL(url);
  const name = env.BENCH_DATABASE_NAME ?? "vexil_bench";
  if (!/^[a-z_][a-z0-9_]*$/.test(name))
    throw new Error(`BENCH_DATABASE_NAME must be a plain identifier: ${name}`);
  target.pathname = `/${name}`;
  const exists = await admin.prisma.$queryRaw<unknown[]>`SELECT 1 FROM pg_database WHERE datname = ${name}`;
  const reuse = env.BENCH_REUSE === "1" && exists.length > 0;
  if (!reuse) {
    await admin.prisma.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.prisma.$executeRawUnsafe(`CREATE DATABASE ${name}`);
  }
  await admin.close();
  return { database: openPostgres(target.toString()), fresh: !reuse };
}

const WARM_UP_PATHS = [
  "/api/admin/search/features?limit=1&query=warm-up",
  "/api/admin/search/events?limit=1&feature=IS:warm-up",
];

async function runScenario(url: string, s: Scenario, connections: number, seconds = duration) {
  const load = startLoadMeter({ postgres: Boolean(env.BENCH_DATABASE_URL) });
  const result = await autocannon({
    url: `${url}${s.path}`,
    method: s.method ?? "GET",
    body: s.body,
    headers: { authorization: s.token ?? ADMIN_TOKEN, "content-type": "application/json" },
    connections,
    duration: seconds,
    // The load generator runs on its own thread, so it never queues behind the server's event loop.
    workers: 1,
  });
  // The p99 target is judged at the lowest level (see connectionLevels).
  const judged = s.targetP99 !== undefined && connections === Math.min(...connectionLevels);
  return scenarioResult(
    `${s.group}: ${s.name}, ${connections} connections`,
    { reqPerSec: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99 },
    {
      database: databaseKind(),
      target: judged ? { p99Ms: s.targetP99 } : undefined,
      otherLoad: load.otherLoad(),
      // The slowest request: shows a cold first request (e.g. a free-text term's first count) that p99 hides.
      details: {
        ...size,
        maxMs: result.latency.max,
        errors: result.errors + result.timeouts + result.non2xx,
      },
    },
  );
}

async function main() {
  const { database, fresh } = await openBenchDatabase();
  log(`database: ${database.kind}`);
  const prepared = await prepareBenchDatabase(database, {
    INIT_ADMIN_API_TOKENS: ADMIN_TOKEN,
    INIT_ADMIN_PASSWORD: "Bench-Password-1",
    LOG_LEVEL: "error",
  });
  if (fresh) {
    const started = Date.now();
    await generateDataset(database.prisma, size, log);
    log(`dataset ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  // What the server's event-count job does every 15 s (src/jobs/event-counts.ts).
  const rollupStarted = Date.now();
  await rollUpEventCounts(database.prisma);
  log(`event counts rolled up in ${((Date.now() - rollupStarted) / 1000).toFixed(1)} s`);
  const server = await serveBenchDatabase(database, prepared);
  log(`server on ${server.url}; ${duration} s per scenario at ${connectionLevels.join(" and ")} connections`);
  // Warm-up (JIT, connection pool) on requests that are no scenario's, so the first scenario is
  // not measured on a cold process; no scenario's own data or caches are touched.
  for (const path of WARM_UP_PATHS) {
    const warmUp: Scenario = { name: "warm-up", group: "event search", path, token: BENCH_USER_TOKEN };
    await runScenario(server.url, warmUp, Math.max(...connectionLevels), 1);
  }
  const results: ScenarioResult[] = [];
  const only = env.BENCH_ONLY;
  for (const s of scenarios().filter((x) => !only || x.name.includes(only) || x.group === only)) {
    for (const connections of connectionLevels) {
      const r = await runScenario(server.url, s, connections);
      results.push(r);
      log(
        `${r.scenario}: ${r.reqPerSec} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, max ${r.details?.maxMs} ms, errors ${r.details?.errors}, other load ${r.otherLoad}`,
      );
    }
  }
  await saveResults("search", results);
  if (env.BENCH_EXPLAIN !== "0") await explainHotQueries(database.prisma);
  await server.close();
}

runBench(main);
