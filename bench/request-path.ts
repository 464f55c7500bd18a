// `npm run bench:request-path`: the fixed cost of a request (issue 16, item 2). A server in
// this process (PGlite in memory, or BENCH_DATABASE_URL's database `vexil_bench_path`
// re-created), autocannon in a worker thread, 10 connections, BENCH_DURATION seconds (10) per
// scenario: requests that need little or no database work, through each surface. Besides
// req/s and latency it reports the server's main-thread CPU per request (event-loop utilisation
// x duration / requests), which is what "fixed cost" means on a busy server.
// Results: bench/results/request-path.json.
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import { openBenchDatabase } from "./bench-database.ts";
import { prepareBenchDatabase, runBench, serveBenchDatabase } from "./bench-server.ts";
import { databaseKind, saveResults, scenarioResult, startLoadMeter } from "./results.ts";

const env = process.env;
const duration = Number(env.BENCH_DURATION ?? 10);
const connections = Number(env.BENCH_CONNECTIONS ?? 10);
// Each scenario first runs this long unmeasured: the figures are the steady state, not V8
// optimizing the request path's functions (as bench/writes.ts).
const warmUp = Number(env.BENCH_WARMUP_SECONDS ?? 5);
const ADMIN = "*:*.bench-path-admin-secret-0123456789";
const log = (m: string) => console.log(`[bench:path ${new Date().toISOString().slice(11, 19)}] ${m}`);

type Scenario = {
  name: string;
  method?: "GET" | "POST";
  path: string;
  body?: unknown;
  token?: string | null;
};

const scenarios: Scenario[] = [
  { name: "GET /health (no credential, no GraphQL)", path: "/health", token: null },
  { name: "GET /api/admin/ui-config (4.9, REST)", path: "/api/admin/ui-config" },
  {
    name: "POST /graphql { uiConfig }",
    method: "POST",
    path: "/graphql",
    body: { query: "{ uiConfig { version name environment authenticationType } }" },
  },
  {
    name: "POST /api/admin/projects/default/archive/validate (4.12, REST)",
    method: "POST",
    path: "/api/admin/projects/default/archive/validate",
    body: { features: ["no-such-flag"] },
  },
];

/** autocannon against the scenario for `seconds`. */
function load(url: string, s: Scenario, seconds: number) {
  return autocannon({
    url: `${url}${s.path}`,
    method: s.method ?? "GET",
    headers: {
      ...(s.token === null ? {} : { authorization: s.token ?? ADMIN }),
      ...(s.body ? { "content-type": "application/json" } : {}),
    },
    body: s.body ? JSON.stringify(s.body) : undefined,
    connections,
    duration: seconds,
    workers: 1,
  });
}

async function run(url: string, s: Scenario) {
  if (warmUp > 0) await load(url, s, warmUp);
  const meter = startLoadMeter({ postgres: Boolean(env.BENCH_DATABASE_URL) });
  const before = performance.eventLoopUtilization();
  const result = await load(url, s, duration);
  const elu = performance.eventLoopUtilization(before);
  const cpuMsPerRequest = Number(((elu.active || 0) / Math.max(1, result.requests.total)).toFixed(3));
  const row = scenarioResult(
    s.name,
    { reqPerSec: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99 },
    {
      database: databaseKind(),
      otherLoad: meter.otherLoad(),
      details: { connections, cpuMsPerRequest, non2xx: result.non2xx },
    },
  );
  log(
    `${row.scenario}: ${row.reqPerSec} req/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms, ${cpuMsPerRequest} ms main-thread CPU per request, non-2xx ${result.non2xx}`,
  );
  return row;
}

async function main() {
  const database = await openBenchDatabase("vexil_bench_path");
  const prepared = await prepareBenchDatabase(database, { INIT_ADMIN_API_TOKENS: ADMIN, LOG_LEVEL: "error" });
  const server = await serveBenchDatabase(database, prepared);
  log(
    `${database.kind}, ${connections} connections, ${duration} s per scenario after ${warmUp} s unmeasured`,
  );
  const rows = [];
  for (const s of scenarios)
    if (!env.BENCH_ONLY || s.name.includes(env.BENCH_ONLY)) rows.push(await run(server.url, s));
  await saveResults("request-path", rows);
  await server.close();
}

runBench(main);
