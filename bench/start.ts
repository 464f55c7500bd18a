// `npm run bench` (last part) / `tsx bench/start.ts`: how long the compiled server
// (`node dist/server.js`, what `npm start` runs) takes from spawn to `GET /ready` = 200 on the
// embedded database: the first start on a new data folder, then restarts on that folder.
// Prints wall time and the server's CPU time (user + system, from /proc) at the moment it was
// ready, plus the machine's load, since this machine's 2 cores are shared.
//
// Options (environment): BENCH_START_RUNS (restarts, default 5). Results: bench/results/start.json.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { cpuMsOf } from "./process-cpu.ts";
import { saveResults, scenarioResult, startLoadMeter } from "./results.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const runs = Number(process.env.BENCH_START_RUNS ?? 5);

type Start = { wallMs: number; cpuMs: number };

async function startOnce(dataDir: string): Promise<Start> {
  const started = performance.now();
  const child = spawn(process.execPath, ["--enable-source-maps", "dist/server.js"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: "",
      HOST: "127.0.0.1",
      PORT: "0",
      VEXIL_DATA_DIR: dataDir,
      INIT_ADMIN_PASSWORD: "Bench-Start-Password-1",
      INIT_ADMIN_API_TOKENS: "*:*.bench-start-secret",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stderr! }).on("line", (line) => {
      const listening = /"url":"([^"]+)".*"msg":"Vexil listening"/.exec(line);
      if (listening?.[1]) resolve(listening[1]);
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  // The server logs "listening" once /ready can answer; poll it as a probe would.
  for (;;) {
    const res = await fetch(`${url}/ready`).catch(() => null);
    if (res?.status === 200) break;
  }
  const result = { wallMs: performance.now() - started, cpuMs: cpuMsOf(child.pid!) };
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await exited;
  return result;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const show = (s: Start) => `${Math.round(s.wallMs)} ms wall, ${Math.round(s.cpuMs)} ms CPU`;

const dir = await mkdtemp(join(os.tmpdir(), "vexil-bench-start-"));
try {
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ");
  console.log(`[start] ${os.cpus().length} cores, load ${load()}`);
  // The servers started are children that have ended when it is read: the meter counts them as the bench's own.
  const meter = startLoadMeter();
  const first = await startOnce(join(dir, "data"));
  console.log(`[start] first start (new data folder): ${show(first)}`);
  const restarts: Start[] = [];
  for (let i = 0; i < runs; i++) restarts.push(await startOnce(join(dir, "data")));
  console.log(`[start] restarts: ${restarts.map(show).join("; ")}`);
  console.log(
    `[start] restart median: ${Math.round(median(restarts.map((r) => r.wallMs)))} ms wall, ` +
      `${Math.round(median(restarts.map((r) => r.cpuMs)))} ms CPU (targets: restart <= 1500 ms, first <= 5000 ms); load ${load()}`,
  );
  const otherLoad = meter.otherLoad();
  const result = (scenario: string, wallMs: number, cpuMs: number, targetMs: number) =>
    scenarioResult(
      scenario,
      { p50Ms: wallMs },
      { database: "pglite", target: { p50Ms: targetMs }, otherLoad, details: { cpuMs: Math.round(cpuMs) } },
    );
  await saveResults("start", [
    result("server start to ready, new data folder", first.wallMs, first.cpuMs, 5000),
    result(
      `server restart to ready (median of ${runs})`,
      median(restarts.map((r) => r.wallMs)),
      median(restarts.map((r) => r.cpuMs)),
      1500,
    ),
  ]);
} finally {
  await rm(dir, { recursive: true, force: true });
}
