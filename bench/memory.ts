// `npm run bench:memory`: the server's memory (issue 16, item 4). The compiled server
// (`dist/server.js`, what `npm start` runs; `npm run build` first) on the embedded database, or
// on PostgreSQL with BENCH_DATABASE_URL (database `vexil_bench_memory`, re-created), holding
// the dataset of bench/dataset.ts. Reports the process's RSS (/proc/<pid>/status):
// 1. idle after start (the median of the last 5 of BENCH_IDLE_SECONDS one-second samples);
// 2. the peak while heavy requests run: full SDK answers, flag exports, large flag searches;
// 3. idle again afterwards, to show whether the memory those requests took is given back.
// Options: BENCH_FLAGS (10000), BENCH_EVENTS (100000), BENCH_IDLE_SECONDS (15).
// Results: bench/results/memory.json; targets from issue 42 (idle <= 160 MiB, after load <= 368 MiB, Unleash's).
import { readFileSync } from "node:fs";
import os from "node:os";
import { bootstrap } from "../src/bootstrap.ts";
import { loadConfig } from "../src/config.ts";
import { openPostgres } from "../src/db/database.ts";
import { applyMigrations } from "../src/db/migrate.ts";
import { createPglite } from "../src/db/pglite.ts";
import { openPglite } from "../src/db/pglite-database.ts";
import { createLogger } from "../src/shared/logger.ts";
import { startServerProcess } from "../test/helpers/server-process.ts";
import { benchStorage } from "./bench-database.ts";
import { generateDataset } from "./dataset.ts";
import { databaseKind, saveResults, scenarioResult, startLoadMeter, type Target } from "./results.ts";

const env = process.env;
const size = {
  flags: Number(env.BENCH_FLAGS ?? 10_000),
  projects: 20,
  events: Number(env.BENCH_EVENTS ?? 100_000),
};
const IDLE_SECONDS = Number(env.BENCH_IDLE_SECONDS ?? 15);
const ADMIN = "*:*.bench-memory-admin-secret-0123456789";
const log = (m: string) => console.log(`[bench:memory ${new Date().toISOString().slice(11, 19)}] ${m}`);
const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Resident set size of a process, in KiB. */
function rssKib(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  return Number(line?.[1] ?? 0);
}

/** One RSS sample a second for `seconds`; the median of the last five. */
async function idleRss(pid: number, seconds: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < seconds; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    samples.push(rssKib(pid));
  }
  return median(samples.slice(-5));
}

/** The V8 heap (used / total) and external memory the server reports on /metrics, in MiB. */
async function heapOf(url: string): Promise<string> {
  const text = await fetch(`${url}/metrics`, { headers: { authorization: ADMIN } }).then((r) => r.text());
  const gauge = (name: string) =>
    Number(text.match(new RegExp(`^vexil_${name} (\\d+)`, "m"))?.[1] ?? Number.NaN) / 1024 / 1024;
  const heap = `heap ${gauge("nodejs_heap_size_used_bytes").toFixed(0)}/${gauge("nodejs_heap_size_total_bytes").toFixed(0)} MiB`;
  return `${heap}, external ${gauge("nodejs_external_memory_bytes").toFixed(0)} MiB`;
}

/** The dataset, written before the server starts (PGlite allows one process per folder). */
async function loadDataset(storage: { url?: string; dir?: string }) {
  const database = storage.url ? openPostgres(storage.url) : openPglite(await createPglite(storage.dir!));
  await applyMigrations(database.adapterFactory);
  const config = loadConfig({
    ...env,
    INIT_ADMIN_API_TOKENS: ADMIN,
    INIT_ADMIN_PASSWORD: "Bench-Password-1",
  });
  await bootstrap(database.prisma, config, createLogger("silent"));
  await generateDataset(database.prisma, size, log);
  await database.close();
}

async function call(url: string, path: string, token: string, body?: unknown): Promise<number> {
  const res = await fetch(`${url}${path}`, {
    method: body ? "POST" : "GET",
    headers: { authorization: token, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text().catch((error: Error) => {
    throw new Error(`${path}: the answer broke off after status ${res.status}: ${error.cause ?? error}`);
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
  return text.length;
}

/** Heavy requests, 4 at a time, while RSS is sampled every 100 ms; returns the peak. */
async function heavyLoad(url: string, pid: number): Promise<number> {
  const token = await fetch(`${url}/api/admin/api-tokens`, {
    method: "POST",
    headers: { authorization: ADMIN, "content-type": "application/json" },
    body: JSON.stringify({
      tokenName: "bench-memory",
      type: "client",
      environment: "development",
      projects: ["*"],
    }),
  }).then(async (r) => ((await r.json()) as { secret: string }).secret);
  const requests = [
    ...Array.from({ length: 12 }, () => () => call(url, "/api/client/features", token)),
    ...Array.from(
      { length: 4 },
      () => () =>
        call(url, "/api/admin/features-batch/export", ADMIN, { environment: "development", features: [] }),
    ),
    ...Array.from(
      { length: 20 },
      (_, i) => () => call(url, `/api/admin/search/features?limit=100&offset=${i * 100}`, ADMIN),
    ),
    ...Array.from(
      { length: 8 },
      () => () => call(url, "/api/admin/search/events?limit=1000&query=Change", ADMIN),
    ),
  ];
  let peak = rssKib(pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssKib(pid));
  }, 100);
  const workers = Array.from({ length: 4 }, async () => {
    for (let next = requests.shift(); next; next = requests.shift()) await next();
  });
  try {
    await Promise.all(workers);
  } finally {
    clearInterval(sampler);
  }
  return peak;
}

async function main() {
  const storage = await benchStorage("vexil_bench_memory");
  log(
    `${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}; ${storage.url ? "PostgreSQL" : "embedded PGlite"}`,
  );
  await loadDataset(storage);
  const server = await startServerProcess({
    ...storage.env,
    INIT_ADMIN_API_TOKENS: ADMIN,
    INIT_ADMIN_PASSWORD: "Bench-Password-1",
  });
  try {
    const pid = server.child.pid!;
    const load = startLoadMeter({ pids: [pid], postgres: Boolean(storage.url) });
    const idleBefore = await idleRss(pid, IDLE_SECONDS);
    log(`idle after start: ${mib(idleBefore)} (${await heapOf(server.url)})`);
    const peak = await heavyLoad(server.url, pid);
    log(`peak under heavy requests: ${mib(peak)}`);
    const idleAfter = await idleRss(pid, IDLE_SECONDS);
    log(`idle after the heavy requests: ${mib(idleAfter)} (${await heapOf(server.url)})`);
    const otherLoad = load.otherLoad();
    const result = (scenario: string, kib: number, target?: Target) =>
      scenarioResult(
        scenario,
        { rssMiB: kib / 1024 },
        { database: databaseKind(), target, otherLoad, details: { ...size } },
      );
    await saveResults("memory", [
      result("server RSS, idle after start", idleBefore, { rssMiB: 160 }),
      result("server RSS, peak under heavy requests", peak),
      result("server RSS, idle after heavy requests", idleAfter, { rssMiB: 368 }),
    ]);
  } catch (error) {
    console.error(server.output.slice(-30).join("\n"));
    throw error;
  } finally {
    await server.stop();
    await storage.cleanup();
  }
}

await main();
