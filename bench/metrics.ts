// `npm run bench` (part of it) or `npx tsx bench/metrics.ts`: SDK metrics ingestion rate.
//
// Starts a real Vexil server process (src/server.ts; PGlite in a temporary folder, or a database
// `vexil_bench_metrics` re-created on the PostgreSQL server of BENCH_DATABASE_URL), creates
// BENCH_METRICS_FLAGS flags (200) and a client token, then drives `POST /api/client/metrics` with
// autocannon at BENCH_CONNECTIONS connections (10) for BENCH_SECONDS (10): each request is one
// SDK bucket (unleash-client's body) of BENCH_FLAGS_PER_BUCKET flags (20) with variants, from
// 50 app instances. Run once per flush mode (VEXIL_METRICS_FLUSH_MS: 1000 = buffered, the
// default; 0 = each report stored before its 202). After each run it checks that every
// answered bucket's counts are stored: the stored `yes` sum must equal 202s x flags per bucket.
// Target (issue 13): >= 2,000 buckets/s. Results: bench/results/sdk-metrics.json.

import autocannon from "autocannon";
import { startServerProcess } from "../test/helpers/server-process.ts";
import { benchStorage } from "./bench-database.ts";
import { databaseKind, type ScenarioResult, saveResults, scenarioResult, startLoadMeter } from "./results.ts";

const env = process.env;
const FLAGS = Number(env.BENCH_METRICS_FLAGS ?? 200);
const PER_BUCKET = Number(env.BENCH_FLAGS_PER_BUCKET ?? 20);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS?.split(",")[0] ?? 10);
const SECONDS = Number(env.BENCH_SECONDS ?? 10);
const TOKEN = "*:*.bench-metrics-secret-0123456789abcdef";
const TARGET = 2000;

async function call(url: string, path: string, body: unknown, token = TOKEN) {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { authorization: token, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function gql<T>(url: string, query: string, variables?: Record<string, unknown>): Promise<T> {
  const res = await call(url, "/graphql", { query, variables });
  if (res.errors) throw new Error(JSON.stringify(res.errors));
  return res.data as T;
}

/** 50 instances x a rotating window of flags: many distinct rows per batch, as real fleets send. */
function bucketBodies(): string[] {
  return Array.from({ length: 50 }, (_, i) => {
    const toggles = Object.fromEntries(
      Array.from({ length: PER_BUCKET }, (_, j) => [
        `bench-metrics-${(i * 7 + j) % FLAGS}`,
        { yes: 1, no: 2, variants: { a: 1, b: 2 } },
      ]),
    );
    const now = new Date();
    return JSON.stringify({
      appName: `bench-app-${i % 5}`,
      instanceId: `instance-${i}`,
      connectionId: `connection-${i}`,
      bucket: { start: now.toISOString(), stop: new Date(now.getTime() + 60_000).toISOString(), toggles },
      platformName: "node",
      platformVersion: process.versions.node,
      yggdrasilVersion: null,
      specVersion: "5.2.2",
    });
  });
}

async function runMode(flushMs: number) {
  const db = await benchStorage("vexil_bench_metrics");
  const server = await startServerProcess({
    ...db.env,
    INIT_ADMIN_API_TOKENS: TOKEN,
    VEXIL_METRICS_FLUSH_MS: String(flushMs),
    // This measures ingestion, not the per-token and per-address limits of one fleet (D-35).
    VEXIL_SDK_WRITES_PER_MINUTE_PER_TOKEN: "100000000",
    VEXIL_SDK_WRITES_PER_MINUTE_PER_ADDRESS: "100000000",
  });
  try {
    for (let i = 0; i < FLAGS; i += 25) {
      const names = Array.from({ length: Math.min(25, FLAGS - i) }, (_, j) => `bench-metrics-${i + j}`);
      const mutation = names
        .map((n, j) => `f${j}: createFeature(project: "default", input: { name: "${n}" }) { name }`)
        .join("\n");
      await gql(server.url, `mutation { ${mutation} }`);
    }
    const { createApiToken } = await gql<{ createApiToken: { secret: string } }>(
      server.url,
      `mutation { createApiToken(input: { tokenName: "bench-sdk", type: "client", environment: "development" }) { secret } }`,
    );
    const bodies = bucketBodies();
    const meter = startLoadMeter({
      pids: [server.child.pid ?? 0],
      postgres: Boolean(env.BENCH_DATABASE_URL),
    });
    const result = await autocannon({
      url: `${server.url}/api/client/metrics`,
      connections: CONNECTIONS,
      duration: SECONDS,
      workers: 1,
      requests: bodies.map((body) => ({
        method: "POST" as const,
        body,
        headers: { authorization: createApiToken.secret, "content-type": "application/json" },
      })),
    });
    const otherLoad = meter.otherLoad();
    const accepted = result["2xx"];
    // Buffered mode: the last batch is written within flushMs; wait for it (a bench may sleep).
    await new Promise((r) => setTimeout(r, flushMs + 1500));
    const stored = await gql<{ featureMetrics: { yes: number }[] }[]>(server.url, "{ __typename }").then(
      async () => {
        let sum = 0;
        for (let i = 0; i < FLAGS; i++) {
          const data = await gql<{ featureMetrics: { yes: number }[] }>(
            server.url,
            `query($n: String!) { featureMetrics(name: $n, hoursBack: 2) { yes } }`,
            { n: `bench-metrics-${i}` },
          );
          sum += data.featureMetrics.reduce((s, m) => s + m.yes, 0);
        }
        return sum;
      },
    );
    const expected = accepted * PER_BUCKET;
    const line = {
      database: env.BENCH_DATABASE_URL ? "postgresql" : "pglite",
      flushMs,
      connections: CONNECTIONS,
      seconds: SECONDS,
      bucketsPerSecond: Math.round(result.requests.average),
      p50: result.latency.p50,
      p99: result.latency.p99,
      max: result.latency.max,
      errors: result.errors + result.timeouts + result.non2xx,
      accepted,
      storedYes: stored,
      expectedYes: expected,
      // Requests still in flight when autocannon stops are stored but not counted as answered.
      allStored: stored >= expected && stored <= expected + CONNECTIONS * PER_BUCKET,
      meetsTarget: result.requests.average >= TARGET,
    };
    console.log(JSON.stringify(line));
    const mode = flushMs ? `buffered (flush every ${flushMs} ms)` : "each report stored before its 202";
    return scenarioResult(
      `POST /api/client/metrics, ${PER_BUCKET}-flag buckets, ${mode}`,
      { reqPerSec: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99 },
      { database: databaseKind(), target: { reqPerSec: TARGET }, otherLoad, details: line },
    );
  } finally {
    await server.stop();
    await db.cleanup();
  }
}

console.log(
  `SDK metrics ingestion: ${PER_BUCKET} flags per bucket, ${CONNECTIONS} connections, ${SECONDS} s per mode (target >= ${TARGET} buckets/s)`,
);
const results: ScenarioResult[] = [];
for (const flushMs of (env.BENCH_METRICS_FLUSH_MODES ?? "1000,0").split(",").map(Number)) {
  results.push(await runMode(flushMs));
}
await saveResults("sdk-metrics", results);
