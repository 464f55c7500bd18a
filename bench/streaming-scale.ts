// `npm run bench:streaming`: one node holding many SDK streams and graphql-ws subscriptions at
// once (issue 42, point 3): the server's memory per connection, and how long a toggle takes to
// reach every one of them.
//
// The built server (`dist/server.js`, as `npm start` runs it) serves the dataset of
// bench/dataset.ts (BENCH_FLAGS, 1,000 flags in 20 projects) on PGlite, or on PostgreSQL with
// BENCH_DATABASE_URL (database `vexil_bench_streaming`, re-created). The load generator is
// BENCH_CLIENT_PROCESSES child processes (4, bench/streaming-clients.ts) on loopback only:
// 1. BENCH_STREAMS (10,000) `GET /api/client/streaming` connections of one client token of
//    project-01 (50 flags), each counted open once it got its hydration;
// 2. BENCH_WS_SUBS (10,000) graphql-ws subscriptions to that project's enable/disable events,
//    one per socket while the server's open-file limit allows (here RLIMIT_NOFILE is 20,000,
//    hard, for the server and each generator process; 10,000 streams + 10,000 sockets need a
//    few more, so the last subscriptions share sockets two by two: the report says how many
//    sockets). Raise `ulimit -n` (hard limit: root or limits.conf) for one socket each.
// 3. BENCH_TOGGLES (10) toggles of one flag of that project over REST, one at a time: for each,
//    the time from sending the toggle to each stream and subscription receiving its change.
// The server's memory is read by bench/memory-probe.cjs (two full collections, then
// process.memoryUsage) before and after each half of each kind of connection: the memory per
// connection (target ≤ 20 KiB) is the second half's growth divided by its connections (what one
// more costs, once one-time growth such as V8 enlarging its young generation is behind), RSS
// judged, heap + external and the average from the baseline reported beside it. The caps on
// streams (VEXIL_STREAMS_PER_TOKEN, VEXIL_STREAMS_PER_NODE: security limits, 100 and 1,000 by
// default) are raised for this server to BENCH_STREAMS + 100, and the time a socket has for its
// connection_init (VEXIL_WS_INIT_TIMEOUT_MS, 3 s) to 30 s: the generator greets in bursts.
// HEAP_SNAPSHOT_DIR=<folder> also writes a heap snapshot at each reading (slow: minutes each);
// BENCH_SERVER_NODE_OPTIONS adds Node options to the server (e.g. a CPU profile, profile.md).
// Bounded: every wait has a timeout and the whole run stops after BENCH_MAX_SECONDS (900).
// Results: bench/results/streaming.json.
import { type ChildProcess, fork } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import { openPostgres } from "../src/db/database.ts";
import { createPglite } from "../src/db/pglite.ts";
import { openPglite } from "../src/db/pglite-database.ts";
import { hashSecret } from "../src/modules/access/credentials.write.ts";
import { startServerProcess } from "../test/helpers/server-process.ts";
import { benchStorage } from "./bench-database.ts";
import { prepareBenchDatabase, runBench } from "./bench-server.ts";
import { generateDataset } from "./dataset.ts";
import { cpuMsOf } from "./process-cpu.ts";
import { databaseKind, saveResults, scenarioResult, startLoadMeter } from "./results.ts";
import type { ClientCommand, ClientReport } from "./streaming-clients.ts";

const env = process.env;
const STREAMS = Number(env.BENCH_STREAMS ?? 10_000);
const WS_SUBS = Number(env.BENCH_WS_SUBS ?? 10_000);
const PROCESSES = Number(env.BENCH_CLIENT_PROCESSES ?? 4);
const TOGGLES = Number(env.BENCH_TOGGLES ?? 10);
const FLAGS = Number(env.BENCH_FLAGS ?? 1000);
const MAX_SECONDS = Number(env.BENCH_MAX_SECONDS ?? 900);
/** Connections each generator process opens at once. */
const CONCURRENCY = 32;
/** How long a round may take before the connections still waiting count as missed. */
const ROUND_TIMEOUT_MS = 30_000;
/** The same before measuring, while subscriptions may still be attaching. */
const CHECK_TIMEOUT_MS = 5_000;
const TARGET_KIB = 20;
const TARGET_P99_MS = 1000;
const ADMIN = "*:*.bench-streaming-admin-secret-0123456789";
const CLIENT = "project-01:production.bench-streaming-client-secret-0123";
const PROJECT = "project-01";
/** A flag of project-01 (flag i is in project i % 20 + 1). */
const FLAG = "flag-00020";
const WS_QUERY = `subscription { events(filter: { projects: ["${PROJECT}"], types: ["feature-environment-enabled", "feature-environment-disabled"] }) { id featureName type } }`;
const log = (m: string) =>
  console.log(`[bench:streaming ${new Date().toISOString().slice(11, 19)}] ${m} (load ${load1()})`);
const load1 = () => (os.loadavg()[0] ?? 0).toFixed(1);

type Memory = { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number };
type Generator = { child: ChildProcess; ask(command: ClientCommand): Promise<ClientReport> };

/** Starts one generator process; `ask` sends a command and resolves with its answer. */
function startGenerator(): Generator {
  const child = fork(new URL("./streaming-clients.ts", import.meta.url).pathname, [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const waiting: ((report: ClientReport) => void)[] = [];
  child.on("message", (report: ClientReport) => waiting.shift()?.(report));
  return {
    child,
    ask: (command) =>
      new Promise((resolve) => {
        waiting.push(resolve);
        child.send(command);
      }),
  };
}

/** Splits `total` into `parts` near-equal shares. */
const shares = (total: number, parts: number) =>
  Array.from({ length: parts }, (_, i) => Math.floor(total / parts) + (i < total % parts ? 1 : 0));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** The dataset and tokens, written before the server starts (PGlite allows one process per folder). */
async function loadDataset(storage: { url?: string; dir?: string }) {
  const database = storage.url ? openPostgres(storage.url) : openPglite(await createPglite(storage.dir!));
  await prepareBenchDatabase(database, { INIT_ADMIN_API_TOKENS: ADMIN });
  await generateDataset(database.prisma, { flags: FLAGS, projects: 20, events: 0 }, log);
  await database.prisma.apiToken.create({
    data: {
      tokenName: "bench-streaming",
      type: "client",
      environment: "production",
      projects: [PROJECT],
      secretHash: hashSecret(CLIENT),
      displayPrefix: "bench",
    },
  });
  await database.close();
}

/** Open files the process may have, and has. */
function fileDescriptors(pid: number) {
  const limit = readFileSync(`/proc/${pid}/limits`, "utf8").match(/^Max open files\s+(\d+)/m);
  return { limit: Number(limit?.[1] ?? 1024), open: readdirSync(`/proc/${pid}/fd`).length };
}

async function main() {
  const deadline = setTimeout(() => {
    console.error(`[bench:streaming] stopped after BENCH_MAX_SECONDS=${MAX_SECONDS}`);
    process.exit(1);
  }, MAX_SECONDS * 1000);
  deadline.unref();
  const storage = await benchStorage("vexil_bench_streaming");
  log(`${os.cpus().length} cores; ${storage.url ? "PostgreSQL" : "embedded PGlite"}; ${FLAGS} flags`);
  await loadDataset(storage);
  const server = await startServerProcess({
    ...storage.env,
    INIT_ADMIN_API_TOKENS: ADMIN,
    VEXIL_STREAMS_PER_TOKEN: String(STREAMS + 100),
    VEXIL_STREAMS_PER_NODE: String(Math.max(STREAMS + 100, 1000)),
    // The generator opens sockets in bursts a busy server may take seconds to greet: a socket
    // is not closed for a late connection_init here (default 3 s: a security limit, kept).
    VEXIL_WS_INIT_TIMEOUT_MS: "30000",
    NODE_OPTIONS: `--require ${new URL("./memory-probe.cjs", import.meta.url).pathname} ${env.BENCH_SERVER_NODE_OPTIONS ?? ""}`,
  });
  const generators = Array.from({ length: PROCESSES }, startGenerator);
  try {
    await run(server.url, server.child, server.output, generators);
  } catch (error) {
    console.error(server.output.slice(-30).join("\n"));
    throw error;
  } finally {
    for (const g of generators) g.child.kill();
    await server.stop();
    await storage.cleanup();
  }
}

async function run(url: string, child: ChildProcess, output: string[], generators: Generator[]) {
  const pid = child.pid as number;
  const all = (command: (i: number) => ClientCommand | null) =>
    Promise.all(
      generators.map((g, i) => {
        const c = command(i);
        return c ? g.ask(c) : Promise.resolve(null);
      }),
    );
  const probe = async (): Promise<Memory> => {
    const seen = output.length;
    child.kill("SIGUSR2");
    for (let waited = 0; waited < 180_000; waited += 50) {
      const line = output.slice(seen).find((l) => l.startsWith("[memory-probe] "));
      if (line) {
        const memory = JSON.parse(line.slice("[memory-probe] ".length)) as Memory;
        log(
          `server memory: ${Object.entries(memory)
            .map(([k, v]) => `${k} ${mib(v)}`)
            .join(", ")}; resident: ${residentByMapping(pid)}`,
        );
        return memory;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("the server did not answer the memory probe");
  };
  let toggledOn = false;
  const toggle = async () => {
    toggledOn = !toggledOn;
    const sentAt = performance.timeOrigin + performance.now();
    const res = await fetch(
      `${url}/api/admin/projects/${PROJECT}/features/${FLAG}/environments/production/${toggledOn ? "on" : "off"}`,
      { method: "POST", headers: { authorization: ADMIN } },
    );
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`toggle: ${res.status}`);
    return sentAt;
  };
  /** One toggle: arms every generator, toggles, and collects when each connection got it (ms after sending). */
  const round = async (timeoutMs = ROUND_TIMEOUT_MS) => {
    await all(() => ({ type: "arm" }));
    const sentAt = await toggle();
    const reports = (await all(() => ({ type: "collect", timeoutMs }))) as Extract<
      ClientReport,
      { type: "collected" }
    >[];
    const latencies = (times: (number | null)[]) =>
      times.map((t) => (t === null || Number.isNaN(t) ? Number.NaN : t - sentAt));
    return {
      sse: reports.flatMap((r) => latencies(r.sse)),
      ws: reports.flatMap((r) => latencies(r.ws)),
    };
  };
  const open = async (label: string, commands: (i: number) => ClientCommand | null) => {
    const started = performance.now();
    const reports = (await all(commands)).filter((r) => r !== null) as Extract<
      ClientReport,
      { type: "opened" }
    >[];
    const ready = reports.reduce((n, r) => n + r.ready, 0);
    const statuses: Record<string, number> = {};
    for (const r of reports)
      for (const [k, v] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
    log(
      `${label}: ${ready} open in ${((performance.now() - started) / 1000).toFixed(1)} s (${JSON.stringify(statuses)})`,
    );
    return ready;
  };
  const sse = (count: number): ClientCommand | null =>
    count > 0 ? { type: "open-sse", url, token: CLIENT, count, concurrency: CONCURRENCY } : null;
  const ws = (sockets: number[]): ClientCommand | null =>
    sockets.length > 0
      ? { type: "open-ws", url, token: ADMIN, sockets, query: WS_QUERY, concurrency: CONCURRENCY }
      : null;

  // Warm-up: a few of each kind, two rounds (JIT, caches, the feed); they stay open throughout.
  await open("warm-up streams", (i) => sse(i === 0 ? 10 : 0));
  await open("warm-up subscriptions", (i) => (i === 0 ? ws(Array(10).fill(1)) : null));
  for (let i = 0; i < 2; i++) await round(CHECK_TIMEOUT_MS);
  const before = await probe();
  log(`baseline: RSS ${mib(before.rss)}, heap ${mib(before.heapUsed)}, external ${mib(before.external)}`);

  /**
   * A subscription is live once it received a change (its subscribe message may still wait in
   * the server's queue when its socket was greeted): rounds until every connection got one
   * (bounded), so memory is read with nothing in flight.
   */
  const untilLive = async () => {
    for (let check = 0; check < 5; check++) {
      const { sse: s, ws: w } = await round(CHECK_TIMEOUT_MS);
      const missing = [...s, ...w].filter(Number.isNaN).length;
      if (missing === 0) return;
      log(`check round ${check + 1}: ${missing} connection(s) missed it`);
    }
  };
  const meter = startLoadMeter({ pids: [pid, ...generators.map((g) => g.child.pid as number)] });
  /**
   * Opens connections in two halves, reading the memory after each: per connection is the
   * second half's growth over its connections (what one more connection costs, once the
   * process's one-time growth, such as V8 enlarging its young generation, is behind), and the
   * average over all of them from the baseline.
   */
  const openInHalves = async (
    label: string,
    start: Memory,
    half: (part: 0 | 1) => (i: number) => ClientCommand | null,
  ) => {
    const first = await open(`${label}, first half`, half(0));
    await untilLive();
    const middle = await probe();
    const second = await open(`${label}, second half`, half(1));
    await untilLive();
    const end = await probe();
    const marginal = perConnection(middle, end, second);
    const average = perConnection(start, end, first + second);
    log(`${label}: per connection ${describe(marginal)} (second half); ${describe(average)} (average)`);
    return { opened: first + second, end, marginal, average };
  };
  const halves = (total: number) => [Math.ceil(total / 2), Math.floor(total / 2)] as const;
  const streamsOpened = await openInHalves(
    `${STREAMS} SDK streams`,
    before,
    (part) => (i) => sse(shares(halves(STREAMS)[part], generators.length)[i]!),
  );
  const streams = streamsOpened.opened;

  // One socket per subscription while the open-file limit allows, else two on some (see above).
  const files = fileDescriptors(pid);
  const socketBudget = Math.max(1, files.limit - files.open - 200);
  const sockets = Math.min(WS_SUBS, socketBudget);
  const perSocket = Array.from(
    { length: sockets },
    (_, i) => Math.floor(WS_SUBS / sockets) + (i < WS_SUBS % sockets ? 1 : 0),
  );
  // Half of the sockets (per generator) in each part.
  const socketsOf = (part: 0 | 1) => {
    const [firstHalf] = halves(sockets);
    const list = part === 0 ? perSocket.slice(0, firstHalf) : perSocket.slice(firstHalf);
    let from = 0;
    return shares(list.length, generators.length).map((n) => {
      from += n;
      return list.slice(from - n, from);
    });
  };
  const subscriptionsOpened = await openInHalves(
    `${WS_SUBS} subscriptions on ${sockets} sockets`,
    streamsOpened.end,
    (part) => (i) => ws(socketsOf(part)[i]!),
  );
  const subscriptions = subscriptionsOpened.opened;

  // An admin's request while every connection is open (issue 36: 2,000 streams once made it 3.4 s).
  const admin: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    const res = await fetch(`${url}/api/admin/projects`, { headers: { authorization: ADMIN } });
    await res.arrayBuffer();
    admin.push(performance.now() - started);
  }
  admin.sort((a, b) => a - b);
  log(
    `admin GET /api/admin/projects with every connection open: p50 ${Math.round(percentile(admin, 50))} ms, max ${Math.round(admin.at(-1) ?? 0)} ms`,
  );

  const sseLatency: number[] = [];
  const wsLatency: number[] = [];
  let missed = 0;
  const lastOfRound: number[] = [];
  const cpuBefore = cpuMsOf(pid);
  for (let i = 0; i < TOGGLES; i++) {
    const r = await round();
    const got = [...r.sse, ...r.ws].filter((t) => !Number.isNaN(t));
    missed += r.sse.length + r.ws.length - got.length;
    sseLatency.push(...r.sse.filter((t) => !Number.isNaN(t)));
    wsLatency.push(...r.ws.filter((t) => !Number.isNaN(t)));
    lastOfRound.push(Math.max(...got));
    log(`toggle ${i + 1}: last of ${got.length} received after ${Math.round(Math.max(...got))} ms`);
  }
  // The server's CPU per toggle (the write and its fan-out): a figure the machine's load does not inflate.
  const cpuPerToggle = (cpuMsOf(pid) - cpuBefore) / TOGGLES;
  log(`server CPU per toggle: ${Math.round(cpuPerToggle)} ms`);
  const afterToggles = await probe();
  const otherLoad = meter.otherLoad();
  sseLatency.sort((a, b) => a - b);
  wsLatency.sort((a, b) => a - b);
  const both = [...sseLatency, ...wsLatency].sort((a, b) => a - b);
  log(
    `toggle -> received: streams p50 ${Math.round(percentile(sseLatency, 50))} ms p99 ${Math.round(percentile(sseLatency, 99))} ms; subscriptions p50 ${Math.round(percentile(wsLatency, 50))} ms p99 ${Math.round(percentile(wsLatency, 99))} ms; missed ${missed}`,
  );
  await all(() => ({ type: "close" }));
  await new Promise((r) => setTimeout(r, 3000));
  const closed = await probe();
  log(
    `all closed: RSS ${mib(closed.rss)}, heap ${mib(closed.heapUsed)} (baseline ${mib(before.rss)}, ${mib(before.heapUsed)})`,
  );

  const common = { database: databaseKind(), otherLoad };
  const details = { flags: FLAGS, streams, subscriptions, sockets, generatorProcesses: generators.length };
  const memoryResult = (scenario: string, opened: typeof streamsOpened) =>
    scenarioResult(
      scenario,
      { kibPerConnection: opened.marginal.rssKib },
      {
        ...common,
        target: { kibPerConnection: TARGET_KIB },
        details: {
          ...details,
          heapKib: round1(opened.marginal.heapKib),
          averageRssKib: round1(opened.average.rssKib),
          averageHeapKib: round1(opened.average.heapKib),
        },
      },
    );
  await saveResults("streaming", [
    memoryResult(`${STREAMS} SDK streams (/api/client/streaming): server memory per stream`, streamsOpened),
    memoryResult(`${WS_SUBS} graphql-ws subscriptions: server memory per subscription`, subscriptionsOpened),
    scenarioResult(
      `a toggle reaching ${STREAMS} SDK streams and ${WS_SUBS} subscriptions at once: sent to received`,
      { p50Ms: percentile(both, 50), p99Ms: percentile(both, 99), rssMiB: afterToggles.rss / 2 ** 20 },
      {
        ...common,
        target: { p99Ms: TARGET_P99_MS },
        details: {
          ...details,
          toggles: TOGGLES,
          missed,
          streamsP99Ms: Math.round(percentile(sseLatency, 99)),
          subscriptionsP99Ms: Math.round(percentile(wsLatency, 99)),
          lastOfRoundMaxMs: Math.round(Math.max(...lastOfRound)),
          serverCpuMsPerToggle: Math.round(cpuPerToggle),
          adminP50Ms: Math.round(percentile(admin, 50)),
          adminMaxMs: Math.round(admin.at(-1) ?? 0),
          rssAfterClosedMiB: Math.round(closed.rss / 2 ** 20),
        },
      },
    ),
  ]);
  if (missed > 0) process.exitCode = 1;
}

/**
 * The process's resident memory by kind of mapping (/proc/<pid>/smaps): malloc's heap, large
 * anonymous reservations (WebAssembly memories: the embedded database), other anonymous
 * mappings (V8's heap, malloc's other arenas) and files.
 */
function residentByMapping(pid: number): string {
  const kinds: Record<string, number> = { malloc: 0, wasm: 0, anonymous: 0, files: 0 };
  let kind = "files";
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const range = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (range) {
      const size = Number.parseInt(range[2]!, 16) - Number.parseInt(range[1]!, 16);
      const name = range[3] ?? "";
      kind =
        name === "[heap]"
          ? "malloc"
          : name.startsWith("/")
            ? "files"
            : size >= 2 ** 30
              ? "wasm"
              : "anonymous";
    } else if (line.startsWith("Rss:")) {
      kinds[kind] = (kinds[kind] ?? 0) + Number(line.split(/\s+/)[1]) * 1024;
    }
  }
  return Object.entries(kinds)
    .map(([k, v]) => `${k} ${mib(v)}`)
    .join(", ");
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const round1 = (n: number) => Math.round(n * 10) / 10;

function perConnection(before: Memory, after: Memory, connections: number) {
  const n = Math.max(connections, 1);
  return {
    rssKib: (after.rss - before.rss) / n / 1024,
    heapKib: (after.heapUsed + after.external - before.heapUsed - before.external) / n / 1024,
  };
}

const describe = (m: { rssKib: number; heapKib: number }) =>
  `RSS ${m.rssKib.toFixed(1)} KiB, heap + external ${m.heapKib.toFixed(1)} KiB`;

runBench(main);
