// The one place benchmark figures are written: bench/results/<group>.json, one record per
// scenario with its figures, target, date, commit and the machine's load while it ran. The
// committed files are the baseline `npm run bench:compare` judges a new run against, and what
// `npm run bench:doc` turns into docs/performance.md.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import { cpuMsOf, postgresCpuMs } from "./process-cpu.ts";

export const RESULTS_DIR = new URL("./results/", import.meta.url).pathname;

/** Limits a scenario should meet: a floor on throughput, ceilings on latency and memory. */
export type Target = Figures;

/**
 * What one scenario measured. `reqPerSec` is requests (or operations, for in-process benches) per
 * second; `kibPerConnection` the server memory each open connection (stream, subscription) holds.
 */
export type Figures = {
  reqPerSec?: number;
  p50Ms?: number;
  p99Ms?: number;
  rssMiB?: number;
  kibPerConnection?: number;
};

export type ScenarioResult = Figures & {
  scenario: string;
  /** pglite, postgres, or none (no database involved). */
  database: string;
  target?: Target;
  meetsTarget: boolean | null;
  /** Share of the machine's CPU (0 to 1) busy with work other than the benchmark while it ran. */
  otherLoad: number;
  /** The 1-minute load average when it ended (includes the benchmark itself). */
  loadAverage: number;
  cores: number;
  date: string;
  commit: string;
  /** Whatever else the scenario reports (connections, sizes, CPU per request...). */
  details?: Record<string, unknown>;
};

export type ResultsFile = { group: string; scenarios: ScenarioResult[] };

/** The current commit, short, with `+` when the work tree has uncommitted changes outside bench/results. */
function commitOf(): string {
  try {
    const sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--", ".", ":!bench/results"], {
      encoding: "utf8",
    }).trim();
    return dirty ? `${sha}+` : sha;
  } catch {
    return "unknown";
  }
}

/** Total busy CPU time of the machine so far (every core, not idle or iowait), in ms. */
function machineBusyMs(): number {
  const [cpu] = readFileSync("/proc/stat", "utf8").split("\n");
  const ticks = (cpu ?? "").split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks;
  return ((user + nice + system + irq + softirq + steal) * 1000) / 100;
}

/** CPU time of this process (all its threads) and of its children that have ended, in ms. */
function selfAndReapedChildrenMs(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
  return ([11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0) * 1000) / 100;
}

/**
 * Measures the machine's other work around a scenario: the machine's busy CPU minus the
 * benchmark's own (this process with its worker threads and ended children, the server processes in `pids`, and
 * every PostgreSQL process when `postgres`, since the bench's database is on that cluster).
 */
export function startLoadMeter(options: { pids?: number[]; postgres?: boolean } = {}) {
  const own = () =>
    selfAndReapedChildrenMs() +
    (options.pids ?? []).reduce((sum, pid) => sum + cpuMsOf(pid), 0) +
    (options.postgres ? postgresCpuMs() : 0);
  const start = { at: performance.now(), machine: machineBusyMs(), own: own() };
  return {
    /** The share of all cores other work used since the start (0 to 1). */
    otherLoad(): number {
      const wallMs = performance.now() - start.at;
      const other = machineBusyMs() - start.machine - (own() - start.own);
      return round(Math.min(1, Math.max(0, other / (wallMs * os.cpus().length))), 2);
    },
  };
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Whether the figures meet the target (null without one). */
export function meets(figures: Figures, target?: Target): boolean | null {
  if (!target) return null;
  const checks = [
    target.reqPerSec === undefined || (figures.reqPerSec ?? 0) >= target.reqPerSec,
    target.p50Ms === undefined || (figures.p50Ms ?? Number.POSITIVE_INFINITY) <= target.p50Ms,
    target.p99Ms === undefined || (figures.p99Ms ?? Number.POSITIVE_INFINITY) <= target.p99Ms,
    target.rssMiB === undefined || (figures.rssMiB ?? Number.POSITIVE_INFINITY) <= target.rssMiB,
    target.kibPerConnection === undefined ||
      (figures.kibPerConnection ?? Number.POSITIVE_INFINITY) <= target.kibPerConnection,
  ];
  return checks.every(Boolean);
}

/** One scenario's record: its figures, target check, and when and under what load it ran. */
export function scenarioResult(
  scenario: string,
  figures: Figures,
  options: { database: string; target?: Target; otherLoad: number; details?: Record<string, unknown> },
): ScenarioResult {
  const rounded = Object.fromEntries(
    Object.entries(figures)
      .filter(([, v]) => v !== undefined && Number.isFinite(v))
      // Three significant digits below 100 (an in-process operation takes microseconds).
      .map(([k, v]) => [
        k,
        (v as number) < 100 ? Number((v as number).toPrecision(3)) : round(v as number, 1),
      ]),
  ) as Figures;
  return {
    scenario,
    database: options.database,
    ...rounded,
    ...(options.target ? { target: options.target } : {}),
    meetsTarget: meets(rounded, options.target),
    otherLoad: options.otherLoad,
    loadAverage: round(os.loadavg()[0] ?? 0, 2),
    cores: os.cpus().length,
    date: new Date().toISOString(),
    commit: commitOf(),
    ...(options.details ? { details: options.details } : {}),
  };
}

export function readResults(file: string): ResultsFile | null {
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as ResultsFile) : null;
}

export const resultsFile = (group: string) => `${RESULTS_DIR}${group}.json`;
const keyOf = (r: Pick<ScenarioResult, "scenario" | "database">) => `${r.database}\u0000${r.scenario}`;

/**
 * Writes `results` into bench/results/<group>.json, replacing the records of the same scenarios
 * (and database) in place and keeping the others, so a partial run (BENCH_ONLY) updates only its own.
 */
export async function saveResults(group: string, results: ScenarioResult[]): Promise<void> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const file = resultsFile(group);
  const fresh = new Map(results.map((r) => [keyOf(r), r]));
  const previous = readResults(file)?.scenarios ?? [];
  const known = new Set(previous.map(keyOf));
  const scenarios = [
    ...previous.map((r) => fresh.get(keyOf(r)) ?? r),
    ...results.filter((r) => !known.has(keyOf(r))),
  ];
  await writeFile(file, `${JSON.stringify({ group, scenarios } satisfies ResultsFile, null, 2)}\n`);
  console.log(`[bench] ${results.length} result(s) written to bench/results/${group}.json`);
}

export const databaseKind = () => (process.env.BENCH_DATABASE_URL ? "postgres" : "pglite");
