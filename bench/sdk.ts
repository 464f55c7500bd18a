// `npm run bench:sdk`: the SDK-facing answers over the benchmark dataset (10,000 flags, 2
// environments with strategies): the full client-features answer (plain and gzip), the same with
// a matching If-None-Match, the frontend API for one context (plain, and compressed as a browser
// asks), and OFREP (one flag, and the bulk evaluation of a 100-flag project for one context);
// 10 connections each.
// PGlite by default; BENCH_DATABASE_URL for PostgreSQL (database `vexil_bench_sdk` on it is
// dropped and re-created). BENCH_FLAGS (10000), BENCH_DURATION seconds per scenario (10),
// BENCH_CONNECTIONS (10), BENCH_ONLY (run only the scenarios whose name contains it),
// BENCH_WARMUP_SECONDS (2: each scenario first runs this long unmeasured, so the figures are the
// steady state rather than V8 optimising the path). The load generator counts response bytes
// without keeping them (autocannon-discard-body.cjs): kept, decoding them was its bottleneck.
// Results: bench/results/sdk.json; targets from issue 42.
import { performance } from "node:perf_hooks";
import autocannon from "autocannon";
import { hashSecret } from "../src/modules/access/credentials.write.ts";
import { openBenchDatabase } from "./bench-database.ts";
import { prepareBenchDatabase, runBench, serveBenchDatabase } from "./bench-server.ts";
import { generateDataset, moveIntoOwnProject } from "./dataset.ts";
import { databaseKind, saveResults, scenarioResult, startLoadMeter, type Target } from "./results.ts";

const env = process.env;
const flags = Number(env.BENCH_FLAGS ?? 10_000);
const duration = Number(env.BENCH_DURATION ?? 10);
const connections = Number(env.BENCH_CONNECTIONS ?? 10);
const warmUp = Number(env.BENCH_WARMUP_SECONDS ?? 2);
const DISCARD_BODIES = new URL("./autocannon-discard-body.cjs", import.meta.url).pathname;
const CLIENT = "*:production.bench-client-secret-0123456789";
const FRONTEND = "*:production.bench-frontend-secret-0123456789";
const OFREP_CLIENT = "bench-ofrep:production.bench-ofrep-secret-0123456789";
const OFREP_PROJECT_FLAGS = 100;
const log = (m: string) => console.log(`[bench:sdk ${new Date().toISOString().slice(11, 19)}] ${m}`);

type Scenario = {
  name: string;
  path: string;
  token: string;
  headers?: Record<string, string>;
  method?: "GET" | "POST";
  body?: string;
  /** Every request with a context not seen before (a new targetingKey): nothing is memoised. */
  newContextEachRequest?: boolean;
  target?: Target;
};

function cannon(url: string, s: Scenario, seconds: number) {
  return autocannon({
    url: `${url}${s.path}`,
    headers: { authorization: s.token, ...s.headers },
    method: s.method ?? "GET",
    // autocannon replaces "[<id>]" in the body by a new id per request.
    idReplacement: s.newContextEachRequest,
    body: s.newContextEachRequest ? s.body?.replace("user-2", "user-[<id>]") : s.body,
    connections,
    duration: seconds,
    workers: 1,
    // With workers, autocannon takes the path of a module (its types only know the function).
    setupClient: DISCARD_BODIES as unknown as (client: autocannon.Client) => void,
  });
}

async function run(url: string, s: Scenario) {
  if (warmUp > 0) await cannon(url, s, warmUp);
  const load = startLoadMeter({ postgres: Boolean(env.BENCH_DATABASE_URL) });
  const before = performance.eventLoopUtilization();
  const result = await cannon(url, s, duration);
  // The server's main-thread time per request (as bench/request-path.ts): steadier than req/s
  // on a shared machine, since it does not count the time other work takes the cores.
  const elu = performance.eventLoopUtilization(before);
  const cpuMsPerRequest = Number(((elu.active || 0) / Math.max(1, result.requests.total)).toFixed(3));
  const kBPerRequest = Math.round(result.throughput.average / Math.max(1, result.requests.average) / 1024);
  const errors =
    result.errors +
    result.timeouts +
    result.non2xx -
    (s.headers?.["if-none-match"] ? (result.statusCodeStats?.["304"]?.count ?? 0) : 0);
  const status = Object.keys(result.statusCodeStats ?? {}).join(",");
  const row = scenarioResult(
    s.name,
    { reqPerSec: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99 },
    {
      database: databaseKind(),
      target: s.target,
      otherLoad: load.otherLoad(),
      details: { flags, connections, kBPerRequest, cpuMsPerRequest, errors, status, warmUpSeconds: warmUp },
    },
  );
  log(
    `${row.scenario}: ${row.reqPerSec} req/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms, ${kBPerRequest} kB, ${cpuMsPerRequest} ms main-thread per request, status ${status}, other load ${row.otherLoad}`,
  );
  return row;
}

async function main() {
  const database = await openBenchDatabase("vexil_bench_sdk");
  log(`database: ${database.kind}`);
  const prepared = await prepareBenchDatabase(database, {
    INIT_ADMIN_API_TOKENS: "*:*.bench-admin",
    LOG_LEVEL: "error",
    // One token drives every request here; the per-token limit (default 1,000/s) would cap it.
    VEXIL_OFREP_RATE_LIMIT_PER_SECOND: "1000000",
  });
  await generateDataset(database.prisma, { flags, projects: 20, events: 0 }, log);
  await moveIntoOwnProject(database.prisma, "bench-ofrep", OFREP_PROJECT_FLAGS);
  for (const [secret, type, project] of [
    [CLIENT, "client", "*"],
    [FRONTEND, "frontend", "*"],
    [OFREP_CLIENT, "client", "bench-ofrep"],
  ] as const) {
    await database.prisma.apiToken.create({
      data: {
        tokenName: `${type} ${project}`,
        type,
        environment: "production",
        projects: [project],
        secretHash: hashSecret(secret),
        displayPrefix: "bench",
      },
    });
  }
  const server = await serveBenchDatabase(database, prepared);
  const first = await fetch(`${server.url}/api/client/features`, { headers: { authorization: CLIENT } });
  const etag = first.headers.get("etag") ?? "";
  const size = (await first.arrayBuffer()).byteLength;
  log(
    `full answer: ${(size / 2 ** 20).toFixed(1)} MiB, ${flags} flags; ${connections} connections, ${duration} s per scenario`,
  );
  const frontendPath =
    "/api/frontend?appName=web&userId=2&properties[appVersion]=2.1.0&properties[region]=eu";
  const rows = [];
  const scenarios: Scenario[] = [
    {
      name: "client features, full (identity)",
      path: "/api/client/features",
      token: CLIENT,
      target: { reqPerSec: 150, p99Ms: 150 },
    },
    {
      name: "client features, full (gzip)",
      path: "/api/client/features",
      token: CLIENT,
      headers: { "accept-encoding": "gzip" },
      target: { reqPerSec: 1000 },
    },
    {
      name: "client features, If-None-Match",
      path: "/api/client/features",
      token: CLIENT,
      headers: { "if-none-match": etag },
      target: { reqPerSec: 15_000 },
    },
    {
      name: "frontend API, one context",
      path: frontendPath,
      token: FRONTEND,
      target: { reqPerSec: 5000 },
    },
    {
      // What a browser's unleash-proxy-client sends: fetch always offers compression there.
      name: "frontend API, one context (as a browser: gzip, br)",
      path: frontendPath,
      token: FRONTEND,
      headers: { "accept-encoding": "gzip, deflate, br" },
      target: { reqPerSec: 5000 },
    },
    {
      name: "OFREP, one flag",
      path: "/ofrep/v1/evaluate/flags/flag-00042",
      token: CLIENT,
      ...OFREP_REQUEST,
    },
    {
      name: `OFREP bulk, ${OFREP_PROJECT_FLAGS} flags`,
      path: "/ofrep/v1/evaluate/flags",
      token: OFREP_CLIENT,
      ...OFREP_REQUEST,
    },
    {
      name: `OFREP bulk, ${OFREP_PROJECT_FLAGS} flags, a new context each request`,
      path: "/ofrep/v1/evaluate/flags",
      token: OFREP_CLIENT,
      ...OFREP_REQUEST,
      newContextEachRequest: true,
    },
  ];
  const bulk = await fetch(`${server.url}/ofrep/v1/evaluate/flags`, {
    method: "POST",
    headers: { authorization: OFREP_CLIENT, ...OFREP_REQUEST.headers },
    body: OFREP_REQUEST.body,
  });
  const evaluated = ((await bulk.json()) as { flags: unknown[] }).flags.length;
  if (evaluated !== OFREP_PROJECT_FLAGS) throw new Error(`OFREP bulk evaluated ${evaluated} flags`);
  const only = env.BENCH_ONLY;
  for (const s of scenarios) if (!only || s.name.includes(only)) rows.push(await run(server.url, s));
  await saveResults("sdk", rows);
  await server.close();
}

const OFREP_REQUEST = {
  method: "POST" as const,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({
    context: { targetingKey: "user-2", appName: "web", appVersion: "2.1.0", region: "eu" },
  }),
};

runBench(main);
