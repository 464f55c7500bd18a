// `npm run bench` (after the search benchmark) or `npx tsx bench/subscriptions.ts`: delivery
// latency of live events to many WebSocket subscribers under a steady write load.
//
// A real Vexil server runs as its own process (`src/server.ts`, PGlite in a temporary folder,
// or a database `vexil_bench_live` created on the PostgreSQL server of BENCH_DATABASE_URL). This process
// opens BENCH_SUBSCRIBERS graphql-ws connections (1000), each subscribed to `events`
// (feature-created), then creates BENCH_WRITES_PER_SEC flags per second (20) over HTTP: first
// for BENCH_WARMUP_SECONDS (3, not measured: JIT and connection warm-up), then for
// BENCH_SECONDS (20). For each delivery it reports two latencies:
// - delivery: when the subscriber got the event minus the event's `createdAt` (set when the
//   event row is inserted, just before commit; both processes read the same clock);
// - end to end: when the subscriber got it minus when the writer *sent* the mutation (so it
//   also includes the write's own HTTP, auth and transaction).
// Prints p50/p99/max of both, of the write round trip, the first and last delivery of each
// event, and how many deliveries had still not arrived 60 s after the last write (there must
// be none). BENCH_SERVER_NODE_ARGS adds Node flags to the server process (e.g. `--cpu-prof`).
// Results: bench/results/subscriptions.json.

import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { openPostgres } from "../src/db/database.ts";
import { listeningUrl } from "../test/helpers/server-process.ts";
import { runBench } from "./bench-server.ts";
import { databaseKind, saveResults, scenarioResult, startLoadMeter } from "./results.ts";

const env = process.env;
const SUBSCRIBERS = Number(env.BENCH_SUBSCRIBERS ?? 1000);
const RATE = Number(env.BENCH_WRITES_PER_SEC ?? 20);
const SECONDS = Number(env.BENCH_SECONDS ?? 20);
const WARMUP_SECONDS = Number(env.BENCH_WARMUP_SECONDS ?? 3);
const TOKEN = "*:*.bench-live-secret-0123456789abcdef";
/** Extra Node flags for the server process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
const SERVER_NODE_ARGS = env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [];

async function startServer(extraEnv: Record<string, string>) {
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, "--import", "tsx", "src/server.ts"], {
    cwd: new URL("../", import.meta.url).pathname,
    env: {
      ...env,
      HOST: "127.0.0.1",
      PORT: "0",
      LOG_LEVEL: "info",
      INIT_ADMIN_API_TOKENS: TOKEN,
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on("line", (line) => {
        const url = listeningUrl(line);
        if (url) resolve(url);
      });
    }
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { url, child };
}

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const f = (n: number) => `${n.toFixed(1)} ms`;
  return `n=${sorted.length} p50=${f(percentile(sorted, 50))} p99=${f(percentile(sorted, 99))} max=${f(sorted.at(-1) ?? Number.NaN)}`;
}

/**
 * Like bench/run.ts, BENCH_DATABASE_URL names a server: the benchmark gets its own database
 * there (`vexil_bench_live`, dropped and re-created), never the one in the URL.
 */
async function freshPostgresDatabase(url: string): Promise<string> {
  const admin = openPostgres(url);
  await admin.prisma.$executeRawUnsafe("DROP DATABASE IF EXISTS vexil_bench_live WITH (FORCE)");
  await admin.prisma.$executeRawUnsafe("CREATE DATABASE vexil_bench_live");
  await admin.close();
  const target = new URL(url);
  target.pathname = "/vexil_bench_live";
  return target.toString();
}

async function main() {
  const dataDir = env.BENCH_DATABASE_URL ? null : await mkdtemp(join(tmpdir(), "vexil-bench-live-"));
  const server = await startServer(
    env.BENCH_DATABASE_URL
      ? { DATABASE_URL: await freshPostgresDatabase(env.BENCH_DATABASE_URL) }
      : { VEXIL_DATA_DIR: dataDir as string },
  );
  try {
    await run(server.url, server.child.pid ?? 0);
  } finally {
    server.child.kill("SIGTERM");
    await new Promise((r) => server.child.once("exit", r));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

async function run(serverUrl: string, serverPid: number) {
  const sentAt = new Map<string, number>();
  /** Per measured event: [end to end, delivery] of each delivery, in arrival order. */
  const deliveries = new Map<string, { endToEnd: number[]; delivery: number[] }>();
  const received = new Map<string, number>();
  const waiters: (() => void)[] = [];
  const clients: ReturnType<typeof createClient>[] = [];
  // Connect in groups, so the accept queue never overflows.
  for (let i = 0; i < SUBSCRIBERS; i += 50) {
    const group = Array.from({ length: Math.min(50, SUBSCRIBERS - i) }, () => {
      const client = createClient({
        url: `${serverUrl.replace(/^http/, "ws")}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { Authorization: TOKEN },
        retryAttempts: 0,
      });
      clients.push(client);
      return new Promise<void>((resolve) => client.on("connected", () => resolve()));
    });
    for (const client of clients.slice(i)) subscribe(client);
    await Promise.all(group);
  }
  function subscribe(client: ReturnType<typeof createClient>) {
    client.subscribe<{ events: { featureName: string; createdAt: string } }>(
      {
        query: `subscription { events(filter: { types: ["feature-created"] }) { featureName createdAt } }`,
      },
      {
        next: (result) => {
          const now = performance.now();
          const event = result.data?.events as { featureName: string; createdAt: string };
          const name = event.featureName;
          const measured = deliveries.get(name);
          if (measured) {
            measured.endToEnd.push(now - (sentAt.get(name) as number));
            measured.delivery.push(performance.timeOrigin + now - Date.parse(event.createdAt));
          }
          received.set(name, (received.get(name) ?? 0) + 1);
          if (received.get(name) === SUBSCRIBERS) for (const wake of waiters.splice(0)) wake();
        },
        error: (error) => console.error("subscriber error", error),
        complete: () => {},
      },
    );
  }
  const write = async (name: string) => {
    sentAt.set(name, performance.now());
    const res = await fetch(`${serverUrl}/graphql`, {
      method: "POST",
      headers: { authorization: TOKEN, "content-type": "application/json" },
      body: JSON.stringify({
        query: `mutation($n: String!) { createFeature(project: "default", input: { name: $n }) { name } }`,
        variables: { n: name },
      }),
    });
    const body = (await res.json()) as { errors?: unknown };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return performance.now() - (sentAt.get(name) as number);
  };
  // Until every subscriber is live (all got the same event).
  for (let i = 0; ; i++) {
    const name = `live-check-${i}`;
    const all = new Promise<void>((resolve) => waiters.push(resolve));
    await write(name);
    const done = await Promise.race([
      all.then(() => true),
      new Promise((r) => setTimeout(() => r(false), 3000)),
    ]);
    if (done) break;
  }
  console.log(
    `${SUBSCRIBERS} subscribers live; warming up ${WARMUP_SECONDS}s, then writing ${RATE}/s for ${SECONDS}s`,
  );
  await writeSteadily("warmup", WARMUP_SECONDS, write);
  const meter = startLoadMeter({ pids: [serverPid], postgres: Boolean(env.BENCH_DATABASE_URL) });
  const names = await writeSteadily("load", SECONDS, write, (name) => {
    deliveries.set(name, { endToEnd: [], delivery: [] });
  });
  const writes = names.map((n) => n.ms);
  // Let the last deliveries arrive (bounded).
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline && names.some((n) => (received.get(n.name) ?? 0) < SUBSCRIBERS)) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const otherLoad = meter.otherLoad();
  const missing = names.reduce((sum, n) => sum + (SUBSCRIBERS - (received.get(n.name) ?? 0)), 0);
  const measured = names.map((n) => deliveries.get(n.name) as { endToEnd: number[]; delivery: number[] });
  console.log(
    `database: ${env.BENCH_DATABASE_URL ? "postgresql" : "pglite"}; subscribers: ${SUBSCRIBERS}; writes: ${names.length} of ${RATE * SECONDS} at ${RATE}/s`,
  );
  console.log(
    `delivery latency (event recorded -> subscriber got it): ${summary(measured.flatMap((m) => m.delivery))}`,
  );
  console.log(
    `end to end (mutation sent -> subscriber got it):       ${summary(measured.flatMap((m) => m.endToEnd))}`,
  );
  console.log(`write latency (mutation round trip):                   ${summary(writes)}`);
  console.log(
    `first delivery of each event (end to end):             ${summary(measured.map((m) => m.endToEnd[0] ?? Number.NaN))}`,
  );
  console.log(
    `last delivery of each event (end to end):              ${summary(measured.map((m) => m.endToEnd.at(-1) ?? Number.NaN))}`,
  );
  console.log(`deliveries missing 60 s after the last write: ${missing}`);
  // The target names the delivery (event recorded -> subscriber got it); end to end adds the write.
  const delivery = measured.flatMap((m) => m.delivery).sort((a, b) => a - b);
  const endToEnd = measured.flatMap((m) => m.endToEnd).sort((a, b) => a - b);
  await saveResults("subscriptions", [
    scenarioResult(
      `${SUBSCRIBERS} graphql-ws subscribers, ${RATE} flags created/s: event recorded to delivered`,
      { p50Ms: percentile(delivery, 50), p99Ms: percentile(delivery, 99) },
      {
        database: databaseKind(),
        target: { p99Ms: 1000 },
        otherLoad,
        details: {
          writes: names.length,
          deliveries: delivery.length,
          missing,
          endToEndP99Ms: Math.round(percentile(endToEnd, 99)),
        },
      },
    ),
  ]);
  await Promise.all(clients.map((c) => c.dispose()));
  if (missing > 0) process.exitCode = 1;
}

/** Writes `prefix-<i>` at RATE per second for `seconds`; returns the writes that succeeded. */
async function writeSteadily(
  prefix: string,
  seconds: number,
  write: (name: string) => Promise<number>,
  beforeWrite: (name: string) => void = () => {},
) {
  const done: { name: string; ms: number }[] = [];
  const pending: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; i < RATE * seconds; i++) {
    const due = started + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const name = `${prefix}-${i}`;
    beforeWrite(name);
    pending.push(
      write(name).then(
        (ms) => {
          done.push({ name, ms });
        },
        (error) => console.error(`write ${name} failed: ${String(error)}`),
      ),
    );
  }
  await Promise.all(pending);
  return done;
}

runBench(main);
