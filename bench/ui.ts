// `npm run bench:ui`: the web UI's speed (issue 15).
// 1. Size of the first load: the JavaScript index.html loads (its scripts and the modules it
//    preloads) plus the flag list page's chunk and the chunks it imports, gzipped (level 9, as
//    a compressing proxy would serve them) and raw. Needs a built ui/dist (`npm run build`).
// 2. Time to the first page of the flag list: a real server on the benchmark dataset
//    (bench/dataset.ts: BENCH_UI_FLAGS flags, default 10,000), Debian's Chromium signed in, each
//    run a fresh browser context (no HTTP cache) navigating to /flags; measured from the start
//    of the navigation to the first row of the table being visible. Median of BENCH_UI_RUNS (5).
// Options (environment): BENCH_DATABASE_URL (PostgreSQL, see bench/bench-database.ts),
// BENCH_UI_FLAGS (10000), BENCH_UI_EVENTS (10000), BENCH_UI_RUNS (5), CHROMIUM_PATH.
// Results: bench/results/ui.json (the time to the first page; the bundle's size is printed).
import { readdir, readFile } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { projectRoot } from "../src/shared/project-root.ts";
import { openBenchDatabase } from "./bench-database.ts";
import { prepareBenchDatabase, runBench, serveBenchDatabase } from "./bench-server.ts";
import { generateDataset } from "./dataset.ts";
import { databaseKind, saveResults, scenarioResult, startLoadMeter } from "./results.ts";

const env = process.env;
const FLAGS = Number(env.BENCH_UI_FLAGS ?? 10_000);
const EVENTS = Number(env.BENCH_UI_EVENTS ?? 10_000);
const RUNS = Number(env.BENCH_UI_RUNS ?? 5);
const CHROMIUM = env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ADMIN = { username: "admin", password: "Bench-Password-1" };
const UI_DIST = join(projectRoot(), "ui/dist");
const log = (m: string) => console.log(`[bench:ui ${new Date().toISOString().slice(11, 19)}] ${m}`);

type Sized = { file: string; bytes: number; gzipBytes: number };

/** The JS files a first visit of /flags loads: index.html's, then the page chunk and its imports. */
async function firstLoadScripts(): Promise<Sized[]> {
  const html = await readFile(join(UI_DIST, "index.html"), "utf8");
  const entries = [...html.matchAll(/<(?:script|link)\b[^>]*(?:src|href)="\/?([^"]+\.js)"/g)].map(
    (m) => m[1] as string,
  );
  const assets = await readdir(join(UI_DIST, "assets"));
  const page = assets.find((file) => /^FlagsPage-.*\.js$/.test(file));
  if (!page) throw new Error("no FlagsPage chunk in ui/dist/assets: run `npm run build`");
  const files = new Set<string>();
  const visit = async (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const code = await readFile(join(UI_DIST, file), "utf8");
    // Static imports between chunks (`import{x}from"./errors-abc.js"`, `import"./y.js"`).
    for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g))
      await visit(join(file.slice(0, file.lastIndexOf("/") + 1), m[1] as string));
  };
  for (const entry of entries) await visit(entry);
  await visit(`assets/${page}`);
  return Promise.all(
    [...files].map(async (file) => {
      const code = await readFile(join(UI_DIST, file));
      return { file, bytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
    }),
  );
}

async function timeToFirstPage(url: string): Promise<number[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  const samples: number[] = [];
  try {
    // One warm-up run (server JIT, first queries) that is not counted.
    for (let run = 0; run <= RUNS; run++) {
      const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 900 } });
      const login = await context.request.post("/auth/simple/login", { data: ADMIN });
      if (!login.ok()) throw new Error(`login failed: ${login.status()}`);
      const page = await context.newPage();
      const started = performance.now();
      await page.goto("/flags", { waitUntil: "commit" });
      await page.locator("table.flag-list tbody tr").first().waitFor({ state: "visible", timeout: 60_000 });
      const elapsed = performance.now() - started;
      if (run > 0) samples.push(elapsed);
      log(`${run === 0 ? "warm-up" : `run ${run}`}: first page visible after ${elapsed.toFixed(0)} ms`);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return samples;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

async function main() {
  const scripts = await firstLoadScripts();
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  for (const s of scripts) log(`${s.file}: ${kib(s.bytes)}, gzipped ${kib(s.gzipBytes)}`);
  const total = scripts.reduce((sum, s) => ({ bytes: sum.bytes + s.bytes, gzip: sum.gzip + s.gzipBytes }), {
    bytes: 0,
    gzip: 0,
  });
  log(
    `first load of /flags: ${kib(total.bytes)} of JavaScript, ${kib(total.gzip)} gzipped (target ≤ 300 KB)`,
  );

  const database = await openBenchDatabase("vexil_bench_ui");
  const prepared = await prepareBenchDatabase(database, {
    INIT_ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: "error",
  });
  const seeded = Date.now();
  await generateDataset(database.prisma, { flags: FLAGS, projects: 20, events: EVENTS }, log);
  log(`${FLAGS} flags seeded in ${((Date.now() - seeded) / 1000).toFixed(0)} s (${database.kind})`);
  const server = await serveBenchDatabase(database, prepared);
  try {
    const meter = startLoadMeter({ postgres: Boolean(process.env.BENCH_DATABASE_URL) });
    const samples = await timeToFirstPage(server.url);
    await saveResults("ui", [
      scenarioResult(
        `flag list (${FLAGS} flags): navigation to the first page visible, fresh browser context`,
        { p50Ms: median(samples) },
        {
          database: databaseKind(),
          target: { p50Ms: 1000 },
          // Chromium has ended (its time counts as the bench's own) when this is read.
          otherLoad: meter.otherLoad(),
          details: { runs: samples.map(Math.round), firstLoadGzipKiB: Math.round(total.gzip / 1024) },
        },
      ),
    ]);
    log(
      `flag list over ${FLAGS} flags, navigation to first page visible: median ${median(samples).toFixed(0)} ms ` +
        `(runs: ${samples.map((s) => s.toFixed(0)).join(", ")} ms; target < 1000 ms)`,
    );
    log(
      `machine: ${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
  } finally {
    await server.close();
  }
}

runBench(main);
