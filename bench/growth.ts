// `npm run bench:growth`: how costs grow with the number of flags (issue 42, point 4). For each
// size of BENCH_GROWTH_SIZES (1000,10000,100000 on PostgreSQL; 1000,10000 on PGlite) a fresh
// dataset (bench/dataset.ts, generated in SQL: the flags in 20 projects, BENCH_EVENTS_PER_FLAG
// (10) events each, 40 of them moved into a project of their own, `bench-sdk`, the same at every
// size) is served by an in-process server, and measured:
// - the flag searches of bench/scenarios.ts (the dashboard's list and its filters), 2 connections,
//   BENCH_DURATION seconds each (3): p99 ≤ 100 ms at 100,000 flags;
// - the client-features document of a client token of `bench-sdk` (10 connections), its 304, and
//   its first answer after a change in another project (the configuration read again): flat in
//   the number of flags of other projects;
// - toggles of a flag of `bench-sdk` over REST, one at a time: flat.
// PGlite by default (in memory); BENCH_DATABASE_URL for PostgreSQL (database
// `vexil_bench_growth`, re-created for each size). Sizes run one after the other. Results:
// bench/results/growth.json; `npm run bench:doc` makes them the growth table of docs/performance.md.
import autocannon from "autocannon";
import { hashSecret } from "../src/modules/access/credentials.write.ts";
import { openBenchDatabase } from "./bench-database.ts";
import { prepareBenchDatabase, runBench, serveBenchDatabase } from "./bench-server.ts";
import { generateDataset, moveIntoOwnProject } from "./dataset.ts";
import {
  databaseKind,
  type ScenarioResult,
  saveResults,
  scenarioResult,
  startLoadMeter,
  type Target,
} from "./results.ts";
import { scenarios } from "./scenarios.ts";

const env = process.env;
/** 100,000 flags and a million events fit PostgreSQL; PGlite holds this dataset in memory. */
const DEFAULT_SIZES = env.BENCH_DATABASE_URL ? "1000,10000,100000" : "1000,10000";
const SIZES = (env.BENCH_GROWTH_SIZES ?? DEFAULT_SIZES).split(",").map(Number);
const EVENTS_PER_FLAG = Number(env.BENCH_EVENTS_PER_FLAG ?? 10);
const DURATION = Number(env.BENCH_DURATION ?? 3);
const SDK_PROJECT = "bench-sdk";
/** Flags of the SDK token's project, the same at every size (project-01 has 50 at 1,000 flags). */
const SDK_PROJECT_FLAGS = 40;
const AFTER_CHANGE_ROUNDS = 20;
const ADMIN = "*:*.bench-growth-admin-secret-0123456789";
const CLIENT = `${SDK_PROJECT}:production.bench-growth-client-secret-0123456789`;
const SEARCH_TARGET_MS = 100;
const log = (m: string) => console.log(`[bench:growth ${new Date().toISOString().slice(11, 19)}] ${m}`);

type Measured = { reqPerSec: number; p50Ms: number; p99Ms: number; errors: number };

async function load(
  url: string,
  path: string,
  options: {
    token: string;
    connections: number;
    method?: "GET" | "POST";
    body?: string;
    headers?: Record<string, string>;
  },
): Promise<Measured> {
  const result = await autocannon({
    url: `${url}${path}`,
    method: options.method ?? "GET",
    body: options.body,
    headers: { authorization: options.token, ...options.headers },
    connections: options.connections,
    duration: DURATION,
    workers: 1,
  });
  const notModified = options.headers?.["if-none-match"] ? (result.statusCodeStats?.["304"]?.count ?? 0) : 0;
  return {
    reqPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx - notModified,
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function timed(work: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const res = await work();
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${res.url}: ${res.status}`);
  return performance.now() - started;
}

async function measureSize(flags: number): Promise<ScenarioResult[]> {
  const database = await openBenchDatabase("vexil_bench_growth");
  const prepared = await prepareBenchDatabase(database, { INIT_ADMIN_API_TOKENS: ADMIN, LOG_LEVEL: "error" });
  const started = Date.now();
  await generateDataset(database.prisma, { flags, projects: 20, events: flags * EVENTS_PER_FLAG }, log);
  await moveIntoOwnProject(database.prisma, SDK_PROJECT, SDK_PROJECT_FLAGS);
  await database.prisma.apiToken.create({
    data: {
      tokenName: "bench-growth",
      type: "client",
      environment: "production",
      projects: [SDK_PROJECT],
      secretHash: hashSecret(CLIENT),
      displayPrefix: "bench",
    },
  });
  await database.prisma.$executeRawUnsafe("ANALYZE");
  log(`${flags} flags ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const server = await serveBenchDatabase(database, prepared);
  const url = server.url;
  const rows: ScenarioResult[] = [];
  const record = (name: string, figures: Partial<Measured>, target?: Target, details = {}) => {
    const row = scenarioResult(
      `${flags} flags: ${name}`,
      { reqPerSec: figures.reqPerSec, p50Ms: figures.p50Ms, p99Ms: figures.p99Ms },
      { database: databaseKind(), target, otherLoad: meter.otherLoad(), details: { flags, ...details } },
    );
    rows.push(row);
    log(
      `${row.scenario}: ${row.reqPerSec ?? "-"} req/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms (other load ${row.otherLoad}, load ${row.loadAverage})`,
    );
    meter = startLoadMeter({ postgres: Boolean(env.BENCH_DATABASE_URL) });
  };
  let meter = startLoadMeter({ postgres: Boolean(env.BENCH_DATABASE_URL) });
  try {
    // Warm-up: JIT, the pool, the SDK scope's configuration.
    await load(url, "/api/admin/search/features?limit=1&query=warm-up", { token: ADMIN, connections: 2 });
    meter = startLoadMeter({ postgres: Boolean(env.BENCH_DATABASE_URL) });
    for (const s of scenarios().filter((x) => x.group === "flag search")) {
      const measured = await load(url, s.path, {
        token: s.token ?? ADMIN,
        connections: 2,
        method: s.method,
        body: s.body,
        headers: s.body ? { "content-type": "application/json" } : {},
      });
      record(`flag search, ${s.name}`, measured, flags >= 100_000 ? { p99Ms: SEARCH_TARGET_MS } : undefined, {
        errors: measured.errors,
      });
    }
    const doc = await load(url, "/api/client/features", { token: CLIENT, connections: 10 });
    record("client features of a 40-flag project's token", doc, undefined, { errors: doc.errors });
    const first = await fetch(`${url}/api/client/features`, { headers: { authorization: CLIENT } });
    const served = ((await first.json()) as { features: unknown[] }).features.length;
    if (served !== SDK_PROJECT_FLAGS) throw new Error(`the SDK token got ${served} flags`);
    const etag = first.headers.get("etag") ?? "";
    const notModified = await load(url, "/api/client/features", {
      token: CLIENT,
      connections: 10,
      headers: { "if-none-match": etag },
    });
    record("the same, If-None-Match (304)", notModified, undefined, { errors: notModified.errors });

    // A change in another project, then the document: read again from the database each time.
    const afterChange: number[] = [];
    for (let i = 0; i < AFTER_CHANGE_ROUNDS; i++) {
      const other = `/api/admin/projects/project-02/features/${flagName(flags, 1)}/environments/development/${i % 2 ? "off" : "on"}`;
      await timed(() => fetch(`${url}${other}`, { method: "POST", headers: { authorization: ADMIN } }));
      afterChange.push(
        await timed(() => fetch(`${url}/api/client/features`, { headers: { authorization: CLIENT } })),
      );
    }
    afterChange.sort((a, b) => a - b);
    record("client features, first answer after a change in another project", {
      p50Ms: percentile(afterChange, 50),
      p99Ms: percentile(afterChange, 99),
    });

    // Toggles of one flag of the SDK project, one at a time.
    const sdkFlag = await database.prisma.feature.findFirstOrThrow({
      where: { projectId: SDK_PROJECT },
      select: { name: true },
    });
    const toggles: number[] = [];
    const until = performance.now() + DURATION * 1000;
    for (let i = 0; performance.now() < until; i++) {
      const path = `/api/admin/projects/${SDK_PROJECT}/features/${sdkFlag.name}/environments/production/${i % 2 ? "off" : "on"}`;
      toggles.push(
        await timed(() => fetch(`${url}${path}`, { method: "POST", headers: { authorization: ADMIN } })),
      );
    }
    toggles.sort((a, b) => a - b);
    record("toggle (REST, one at a time)", {
      reqPerSec: toggles.length / DURATION,
      p50Ms: percentile(toggles, 50),
      p99Ms: percentile(toggles, 99),
    });
  } finally {
    await server.close();
  }
  return rows;
}

/** Flag `i` of project-(i % 20 + 1): project-02's first is flag 1 (names as bench/dataset.ts pads them). */
function flagName(flags: number, i: number): string {
  return `flag-${String(i).padStart(Math.max(5, String(flags).length), "0")}`;
}

async function main() {
  for (const flags of SIZES) await saveResults("growth", await measureSize(flags));
}

runBench(main);
