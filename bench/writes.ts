import { Agent, request } from "node:http";
import autocannon from "autocannon";
import { startServerProcess } from "../test/helpers/server-process.ts";
import { benchStorage } from "./bench-database.ts";
import { runBench } from "./bench-server.ts";
import { cpuMsOf, postgresCpuMs } from "./process-cpu.ts";
import { databaseKind, type ScenarioResult, saveResults, scenarioResult, startLoadMeter } from "./results.ts";

const env = process.env;
const FLAGS = Number(env.BENCH_WRITE_FLAGS ?? 1000);
const DURATION = Number(env.BENCH_DURATION ?? 10);
// Each scenario first runs this long unmeasured, so that the figures are the server's steady
// state: in its first seconds a server process spends a tenth of its CPU compiling (V8 optimizing
// the functions the scenario makes hot), Unleash's as well as Vexil's. 0: measure from the start.
const WARMUP = Number(env.BENCH_WARMUP_SECONDS ?? 15);
// BENCH_CONNECTIONS="" runs the creates alone.
const LEVELS = (env.BENCH_CONNECTIONS ?? "2,10,50").split(",").filter(Boolean).map(Number);
const CREATE_CONNECTIONS = Number(env.BENCH_CREATE_CONNECTIONS ?? 8);
const ADMIN = "*:*.bench-writes-admin-secret-0123456789";
// BENCH_TARGET_URL: measure a server already running there instead (Vexil, or Unleash for a
// side-by-side run on the same machine) that accepts ADMIN as an admin token. Flags are then
// created over REST under a fresh prefix, so runs against one database do not collide.
const TARGET = env.BENCH_TARGET_URL;
// BENCH_TARGET_PID: that server's process, for its CPU per request.
const TARGET_PID = Number(env.BENCH_TARGET_PID ?? 0);
const ON_POSTGRES = Boolean(TARGET || env.BENCH_DATABASE_URL);
const PREFIX = TARGET ? `w${Date.now().toString(36)}-` : "w-";
// BENCH_TOGGLE_VIA=graphql: the same toggles as GraphQL mutations selecting only the flag's name
// (a persisted-query-sized answer), to compare with Unleash's empty answer; default REST, which
// answers the Feature record (spec 4.1).
const VIA_GRAPHQL = env.BENCH_TOGGLE_VIA === "graphql";
const log = (m: string) => console.log(`[bench:writes ${new Date().toISOString().slice(11, 19)}] ${m}`);

async function createFlagsOverRest(url: string) {
  const next = { index: 0 };
  const worker = async () => {
    for (let i = next.index++; i < FLAGS; i = next.index++) {
      const res = await fetch(`${url}/api/admin/projects/default/features`, {
        method: "POST",
        headers: { authorization: ADMIN, "content-type": "application/json" },
        body: JSON.stringify({ name: `${PREFIX}${i}` }),
      });
      if (!res.ok) throw new Error(`create ${PREFIX}${i}: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(CREATE_CONNECTIONS, 1) }, worker));
}

async function createFlags(url: string) {
  if (TARGET) return createFlagsOverRest(url);
  for (let i = 0; i < FLAGS; i += 25) {
    const fields = Array.from(
      { length: Math.min(25, FLAGS - i) },
      (_, j) => `f${j}: createFeature(project: "default", input: { name: "${PREFIX}${i + j}" }) { name }`,
    );
    const res = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { authorization: ADMIN, "content-type": "application/json" },
      body: JSON.stringify({ query: `mutation { ${fields.join("\n")} }` }),
    });
    const body = (await res.json()) as { errors?: unknown };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
  }
}

async function toggle(url: string, connections: number, serverPid: number, warmUp = false) {
  const duration = warmUp ? WARMUP : DURATION;
  const cpu = startCpuMeter(serverPid);
  const load = startLoadMeter({ pids: [serverPid], postgres: ON_POSTGRES });
  const result = await autocannon({
    url,
    connections,
    duration,
    requests: [
      {
        setupRequest: (request) => {
          const feature = `${PREFIX}${Math.floor(Math.random() * FLAGS)}`;
          const on = Math.random() < 0.5;
          const field = on ? "enableFeatureEnvironment" : "disableFeatureEnvironment";
          const call = VIA_GRAPHQL
            ? {
                path: "/graphql",
                headers: { authorization: ADMIN, "content-type": "application/json" },
                body: JSON.stringify({
                  query: `mutation($f: String!) { ${field}(project: "default", feature: $f, environment: "development") { name } }`,
                  variables: { f: feature },
                }),
              }
            : {
                path: `/api/admin/projects/default/features/${feature}/environments/development/${on ? "on" : "off"}`,
                headers: { authorization: ADMIN },
              };
          return { ...request, method: "POST", ...call };
        },
      },
    ],
  });
  const row = {
    connections,
    requestsPerSecond: Math.round(result.requests.average),
    ...cpu.perCall(result.requests.total),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    otherLoad: load.otherLoad(),
  };
  log(
    `${warmUp ? "(warm-up) " : ""}${connections} connections: ${row.requestsPerSecond} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, CPU per toggle: server ${row.serverCpuMs ?? "?"} ms, PostgreSQL ${row.databaseCpuMs ?? "-"} ms, load generator ${row.loadGeneratorCpuMs} ms; non-2xx ${row.non2xx}, errors ${row.errors}`,
  );
  return row;
}

/**
 * The dataset loader's calls (issue 16.1): each worker creates a flag, gives it three
 * strategies (two environments) and two tags over REST, again and again for DURATION seconds.
 * Answers calls/s; Unleash loaded 75,000 such calls in 490 s (153 calls/s) at 8 connections.
 */
async function createWithStrategiesAndTags(url: string, workers: number, serverPid: number, warmUp = false) {
  const duration = warmUp ? WARMUP : DURATION;
  const prefix = warmUp ? "warm" : "c";
  // node:http on kept-alive connections, one per worker: fetch cost the load generator ~0.9 ms of
  // CPU per call, taken from the same two cores as the server and PostgreSQL.
  const agent = new Agent({ keepAlive: true, maxSockets: workers });
  const post = (path: string, body: unknown) =>
    new Promise<boolean>((resolve, reject) => {
      const payload = JSON.stringify(body);
      const req = request(
        `${url}${path}`,
        {
          method: "POST",
          agent,
          headers: {
            authorization: ADMIN,
            "content-type": "application/json",
            "content-length": Buffer.byteLength(payload),
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve((res.statusCode ?? 500) < 300)).on("error", reject);
        },
      );
      req.on("error", reject).end(payload);
    });
  const strategy = (name: string) => ({
    name: "flexibleRollout",
    parameters: { rollout: "50", stickiness: "default", groupId: name },
    constraints: [{ contextName: "userId", operator: "IN", values: ["1", "2"] }],
  });
  const latencies: number[] = [];
  let failed = 0;
  let created = 0;
  const until = Date.now() + duration * 1000;
  const run = async (worker: number) => {
    for (let i = 0; Date.now() < until; i++) {
      const name = `${prefix}${PREFIX}${worker}-${i}`;
      const base = `/api/admin/projects/default/features/${name}`;
      const calls: [string, unknown][] = [
        ["/api/admin/projects/default/features", { name, type: "release" }],
        ...["development", "development", "production"].map((e): [string, unknown] => [
          `${base}/environments/${e}/strategies`,
          strategy(name),
        ]),
        [`/api/admin/features/${name}/tags`, { type: "simple", value: `team-${i % 35}` }],
        [`/api/admin/features/${name}/tags`, { type: "simple", value: `area-${worker}` }],
      ];
      for (const [path, body] of calls) {
        const started = performance.now();
        if (!(await post(path, body))) failed++;
        latencies.push(performance.now() - started);
      }
      created++;
    }
  };
  const started = performance.now();
  const cpu = startCpuMeter(serverPid);
  const load = startLoadMeter({ pids: [serverPid], postgres: ON_POSTGRES });
  await Promise.all(Array.from({ length: workers }, (_, w) => run(w)));
  agent.destroy();
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const row = {
    connections: workers,
    callsPerSecond: Math.round(latencies.length / seconds),
    flagsPerSecond: Math.round(created / seconds),
    ...cpu.perCall(latencies.length),
    p50: Math.round(latencies[Math.floor(latencies.length * 0.5)] ?? 0),
    p99: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0),
    failed,
    otherLoad: load.otherLoad(),
  };
  log(
    `${warmUp ? "(warm-up) " : ""}creates at ${workers} connections: ${row.callsPerSecond} calls/s (${row.flagsPerSecond} flags/s), p50 ${row.p50} ms, p99 ${row.p99} ms, CPU per call: server ${row.serverCpuMs ?? "?"} ms, PostgreSQL ${row.databaseCpuMs ?? "-"} ms, load generator ${row.loadGeneratorCpuMs} ms; failed ${failed}`,
  );
  return row;
}

/**
 * CPU from now on of the server, of PostgreSQL (every `postgres` process; PGlite runs inside the
 * server, its CPU is the server's) and of this process (the load generator), per call in ms.
 */
function startCpuMeter(serverPid: number) {
  const before = { server: cpuMsOf(serverPid), database: postgresCpuMs(), loadGenerator: process.cpuUsage() };
  return {
    perCall(calls: number) {
      const per = (ms: number) => Number((ms / Math.max(1, calls)).toFixed(2));
      const own = process.cpuUsage(before.loadGenerator);
      return {
        serverCpuMs: serverPid ? per(cpuMsOf(serverPid) - before.server) : null,
        databaseCpuMs: ON_POSTGRES ? per(postgresCpuMs() - before.database) : null,
        loadGeneratorCpuMs: per((own.user + own.system) / 1000),
      };
    },
  };
}

async function measure(url: string, database: string, serverPid: number) {
  await createFlags(url);
  log(`${FLAGS} flags, ${database}, ${DURATION} s per level after ${WARMUP} s unmeasured`);
  const rows = [];
  const warmUp = [];
  if (LEVELS.length > 0 && WARMUP > 0) warmUp.push(await toggle(url, 10, serverPid, true));
  for (const level of LEVELS) rows.push(await toggle(url, level, serverPid));
  console.table(rows);
  // BENCH_CREATE_CONNECTIONS=0 runs the toggles alone.
  const warmUpCreates =
    CREATE_CONNECTIONS && WARMUP > 0
      ? await createWithStrategiesAndTags(url, CREATE_CONNECTIONS, serverPid, true)
      : undefined;
  const creates = CREATE_CONNECTIONS
    ? await createWithStrategiesAndTags(url, CREATE_CONNECTIONS, serverPid)
    : undefined;
  console.log(
    JSON.stringify({
      flags: FLAGS,
      duration: DURATION,
      warmUp: WARMUP,
      target: TARGET ?? "vexil",
      rows,
      creates,
    }),
  );
  if (!TARGET) await saveResults("writes", resultsOf(rows, creates));
  const failed =
    [...warmUp, ...rows].some((r) => r.non2xx || r.errors) || warmUpCreates?.failed || creates?.failed;
  if (failed) process.exitCode = 1;
}

/** The toggles (REST, or GraphQL with BENCH_TOGGLE_VIA) at each level, and the creates' calls. */
function resultsOf(
  rows: Awaited<ReturnType<typeof toggle>>[],
  creates?: Awaited<ReturnType<typeof createWithStrategiesAndTags>>,
): ScenarioResult[] {
  const database = databaseKind();
  const via = VIA_GRAPHQL ? "GraphQL" : "REST";
  const results = rows.map(({ requestsPerSecond, p50, p99, otherLoad, ...details }) =>
    scenarioResult(
      `toggle (${via} on/off in development), ${details.connections} connections`,
      { reqPerSec: requestsPerSecond, p50Ms: p50, p99Ms: p99 },
      { database, otherLoad, details: { flags: FLAGS, ...details } },
    ),
  );
  if (creates) {
    const { callsPerSecond, p50, p99, otherLoad, ...details } = creates;
    results.push(
      scenarioResult(
        `create a flag with 3 strategies and 2 tags (REST calls), ${details.connections} connections`,
        { reqPerSec: callsPerSecond, p50Ms: p50, p99Ms: p99 },
        { database, otherLoad, details },
      ),
    );
  }
  return results;
}

async function main() {
  if (TARGET) return measure(TARGET, "the server at BENCH_TARGET_URL", TARGET_PID);
  // BENCH_DATABASE_NAME: two runs on one server each in a database of its own.
  const db = await benchStorage(env.BENCH_DATABASE_NAME ?? "vexil_bench_writes");
  const server = await startServerProcess({
    ...db.env,
    INIT_ADMIN_API_TOKENS: ADMIN,
    ...(env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: env.BENCH_SERVER_NODE_OPTIONS } : {}),
  });
  try {
    await measure(server.url, env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite", server.child.pid ?? 0);
  } finally {
    await server.stop();
    await db.cleanup();
  }
}

runBench(main);
