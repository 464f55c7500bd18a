/**
 * Floods of issue 36 against a real server process (`dist/server.js` as `npm start` runs it, on
 * an embedded database in a temporary folder), loopback only: an admin's GraphQL and REST
 * latency with no attack, then under each flood, side by side, with the server's RSS before,
 * at the peak and after, and the server's CPU time. The attackers run in a child process, so
 * that the admin's timings do not wait for them. Run: `npm run bench:attacks` (`BENCH_SECONDS`,
 * default 10 per scenario; `VEXIL_ROOT=<another checkout>` serves that checkout's `dist/server.js`).
 * Figures go to bench/results/attacks.json (bench/results.ts); nothing here is a pass/fail
 * test (targets: admin p99 <= 100 ms, RSS after a flood within 50 MB of its start).
 *
 * A scenario is an `Attack` in ATTACKS: it starts its attackers and returns their stop.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { request } from "node:http";
import { connect } from "node:net";
import os, { tmpdir } from "node:os";
import { join } from "node:path";
import { startServerProcess } from "../test/helpers/server-process.ts";
import { saveResults, scenarioResult, startLoadMeter } from "./results.ts";

const ADMIN = "*:*.bench-attack-admin-secret-0123456789";
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ATTACKERS = 16;
const SETTLE_SECONDS = 15;
const MiB = 1024 * 1024;

type Attack = {
  name: string;
  /** Starts the attackers against `url`; resolves with their stop, which resolves with what they sent. */
  start(url: string, admin: string): Promise<() => Promise<Record<string, number>>>;
};

/** (a) 16 connections posting ~0.5 MB JSON bodies without a credential, to GraphQL and REST in turn. */
const unauthenticatedBodies: Attack = {
  name: "16 unauthenticated connections posting 0.5 MB bodies",
  async start(url) {
    const body = Buffer.from(JSON.stringify({ query: `{ a(x: "${"x".repeat(512 * 1024)}") }` }));
    const counts: Record<string, number> = { requests: 0 };
    return loops(
      ATTACKERS,
      async (i) => {
        const path = i % 2 === 0 ? "/graphql" : "/api/admin/projects";
        const status = await postOnce(`${url}${path}`, body);
        counts.requests = (counts.requests ?? 0) + 1;
        counts[`status ${status}`] = (counts[`status ${status}`] ?? 0) + 1;
      },
      counts,
    );
  },
};

/** (b) 16 WebSockets each sending a 95 MB frame before connection_init, again and again. */
const hugeFramesBeforeInit: Attack = {
  name: "16 WebSockets sending 95 MB frames before connection_init",
  async start(url) {
    const counts: Record<string, number> = { sockets: 0, sentMb: 0 };
    return loops(
      ATTACKERS,
      async () => {
        counts.sockets = (counts.sockets ?? 0) + 1;
        counts.sentMb = (counts.sentMb ?? 0) + (await hugeFrame(url, 95));
      },
      counts,
    );
  },
};

/**
 * (c) The hook of issue 36 point 2: 8 connections posting frontend SDK metrics through one
 * frontend token, each report naming 800 random flags under a random application.
 */
const metricsThroughFrontendToken: Attack = {
  name: "8 connections posting metrics of 800 random flags through a frontend token",
  async start(url, admin) {
    const created = await fetch(`${url}/api/admin/api-tokens`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: admin },
      body: JSON.stringify({
        tokenName: "bench-frontend",
        type: "frontend",
        environment: "development",
        projects: ["*"],
      }),
    });
    const { secret } = (await created.json()) as { secret: string };
    const counts: Record<string, number> = { requests: 0 };
    return loops(
      8,
      async () => {
        const toggles = Object.fromEntries(
          Array.from({ length: 800 }, () => [
            `flood-${randomBytes(6).toString("hex")}`,
            { yes: 1, no: 0, variants: {} },
          ]),
        );
        const now = new Date().toISOString();
        const res = await fetch(`${url}/api/frontend/client/metrics`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: secret },
          body: JSON.stringify({
            appName: `flood-app-${randomBytes(4).toString("hex")}`,
            instanceId: randomBytes(4).toString("hex"),
            bucket: { start: now, stop: now, toggles },
          }),
        });
        await res.arrayBuffer();
        counts.requests = (counts.requests ?? 0) + 1;
        counts[`status ${res.status}`] = (counts[`status ${res.status}`] ?? 0) + 1;
      },
      counts,
    );
  },
};

const ATTACKS: Attack[] = [unauthenticatedBodies, hugeFramesBeforeInit, metricsThroughFrontendToken];

/** Runs `count` loops of `once` until stopped; the stop waits for the loops and returns `counts`. */
async function loops(count: number, once: (i: number) => Promise<void>, counts: Record<string, number>) {
  let running = true;
  const all = Array.from({ length: count }, async (_, i) => {
    while (running) {
      await once(i).catch(() => {
        counts.errors = (counts.errors ?? 0) + 1;
      });
    }
  });
  return async () => {
    running = false;
    await Promise.all(all);
    return counts;
  };
}

/** One POST of `body` without a credential on a new connection; its status (0: the connection broke first). */
function postOnce(url: string, body: Buffer): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, {
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", "content-length": body.length },
    });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", () => resolve(0));
    req.end(body);
  });
}

/**
 * Opens a WebSocket by hand and sends one text frame announcing `mb` MB, streamed from one
 * shared chunk (mask key 0, so the bytes need no copy); resolves with the megabytes that left
 * before the server closed the socket (or all of them).
 */
function hugeFrame(url: string, mb: number): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let sent = 0;
    let upgraded = false;
    const finish = () => {
      socket.destroy();
      resolve(sent);
    };
    socket.on("error", finish);
    socket.on("close", finish);
    socket.once("connect", () =>
      socket.write(
        `GET /graphql HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n` +
          "Sec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n",
      ),
    );
    socket.on("data", (data) => {
      if (upgraded || !data.toString("latin1").startsWith("HTTP/1.1 101")) return;
      upgraded = true;
      const header = Buffer.alloc(14);
      header[0] = 0x81; // FIN, text
      header[1] = 0x80 | 127; // masked, 64-bit length
      header.writeBigUInt64BE(BigInt(mb * MiB), 2); // the mask key (bytes 10-13) stays 0
      socket.write(header);
      const pump = () => {
        while (sent < mb && !socket.destroyed) {
          sent += 1;
          if (!socket.write(SPACES)) return void socket.once("drain", pump);
        }
      };
      pump();
    });
  });
}
const SPACES = Buffer.alloc(MiB, " ");

/** An admin reading, one request at a time for `seconds`: GraphQL and REST in turn; their latencies. */
async function adminLatencies(url: string, seconds: number) {
  const graphql: number[] = [];
  const rest: number[] = [];
  const until = performance.now() + seconds * 1000;
  const headers = { "content-type": "application/json", authorization: ADMIN };
  const query = JSON.stringify({
    query: "{ projects { databaseId name } features(first: 10) { totalCount } }",
  });
  while (performance.now() < until) {
    let start = performance.now();
    await (await fetch(`${url}/graphql`, { method: "POST", headers, body: query })).arrayBuffer();
    graphql.push(performance.now() - start);
    start = performance.now();
    await (await fetch(`${url}/api/admin/projects`, { headers })).arrayBuffer();
    rest.push(performance.now() - start);
    await new Promise((r) => setTimeout(r, 10));
  }
  return { graphql: summary(graphql), rest: summary(rest) };
}

function summary(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return { requests: ms.length, p50: at(0.5), p99: at(0.99), max: Math.round(sorted.at(-1) ?? 0) };
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

/** The median RSS of the last five of `seconds` one-second samples (the server idle). */
async function settledRss(pid: number, seconds: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < seconds; i++) {
    await new Promise((r) => setTimeout(r, 1000));
    samples.push(await rssMb(pid));
  }
  return samples.slice(-5).sort((a, b) => a - b)[2] ?? 0;
}

/** Samples RSS every 250 ms until stopped; the peak. */
function peakRss(pid: number) {
  let peak = 0;
  const timer = setInterval(
    () =>
      void rssMb(pid).then(
        (mb) => (peak = Math.max(peak, mb)),
        () => {},
      ),
    250,
  );
  return () => {
    clearInterval(timer);
    return peak;
  };
}

/** Server CPU time (user + system) so far, in ms (clock ticks of 10 ms). */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Runs attack `index` in a child process for `seconds`; resolves with what its attackers counted. */
function attackInChild(index: number, url: string): Promise<Record<string, number>> {
  const child = spawn(
    process.execPath,
    [...process.execArgv, new URL(import.meta.url).pathname, "attack", String(index), url],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
  });
  return new Promise((resolve, reject) =>
    child.once("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`attacker exited ${code}`)),
    ),
  );
}

/**
 * One flood's record: the admin's slower surface (GraphQL or REST) and the server's RSS once
 * settled after it, against the targets (p99 <= 100 ms, RSS within 50 MiB of before the flood).
 */
function attackResult(
  name: string,
  admin: Awaited<ReturnType<typeof adminLatencies>>,
  rssBeforeMb: number,
  rssAfterMb: number,
  otherLoad: number,
  details: Record<string, unknown> | undefined,
) {
  const p50Ms = Math.max(admin.graphql.p50, admin.rest.p50);
  const p99Ms = Math.max(admin.graphql.p99, admin.rest.p99);
  return scenarioResult(
    `admin GraphQL/REST latency and server RSS: ${name}`,
    { p50Ms, p99Ms, rssMiB: rssAfterMb },
    { database: "pglite", target: { p99Ms: 100, rssMiB: rssBeforeMb + 50 }, otherLoad, details },
  );
}

/** The attacker process: runs one attack for SECONDS against `url` and prints its counts. */
async function attacker(index: number, url: string) {
  const stop = await (ATTACKS[index] as Attack).start(url, ADMIN);
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  process.stdout.write(JSON.stringify(await stop()));
  process.exit(0);
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), "vexil-attacks-"));
  const server = await startServerProcess(
    {
      VEXIL_DATA_DIR: dataDir,
      INIT_ADMIN_API_TOKENS: ADMIN,
      INIT_ADMIN_PASSWORD: "Bench-Password-1",
    },
    { root: process.env.VEXIL_ROOT },
  );
  const pid = server.child.pid as number;
  const log = (m: string) => console.log(`[bench:attacks ${new Date().toISOString().slice(11, 19)}] ${m}`);
  log(`${os.cpus().length} cores, load ${os.loadavg()[0]?.toFixed(1)}; server ${server.url}, pid ${pid}`);
  try {
    await adminLatencies(server.url, 2); // warm-up
    const rows: Record<string, unknown>[] = [];
    const results = [];
    const quiet = await settledRss(pid, 6);
    let cpu = await cpuMs(pid);
    let load = startLoadMeter({ pids: [pid] });
    const admin = await adminLatencies(server.url, SECONDS);
    rows.push({ scenario: "no attack", admin, serverCpuMs: (await cpuMs(pid)) - cpu, rssBeforeMb: quiet });
    results.push(attackResult("no attack", admin, quiet, quiet, load.otherLoad(), rows.at(-1)));
    log(JSON.stringify(rows.at(-1)));
    for (const [index, attack] of ATTACKS.entries()) {
      const before = await settledRss(pid, 6);
      const peak = peakRss(pid);
      cpu = await cpuMs(pid);
      load = startLoadMeter({ pids: [pid] });
      const attackers = attackInChild(index, server.url);
      const admin = await adminLatencies(server.url, SECONDS);
      const counts = await attackers;
      const serverCpuMs = (await cpuMs(pid)) - cpu;
      const peakMb = peak();
      const afterMb = await settledRss(pid, SETTLE_SECONDS);
      rows.push({
        scenario: attack.name,
        admin,
        attackers: counts,
        serverCpuMs,
        rssBeforeMb: before,
        rssPeakMb: peakMb,
        rssAfterMb: afterMb,
      });
      results.push(attackResult(attack.name, admin, before, afterMb, load.otherLoad(), rows.at(-1)));
      log(JSON.stringify(rows.at(-1)));
    }
    // Another checkout's figures (VEXIL_ROOT) are printed, not recorded as this one's.
    if (process.env.VEXIL_ROOT) console.log(JSON.stringify(rows, null, 2));
    else await saveResults("attacks", results);
  } catch (error) {
    console.error(server.output.slice(-30).join("\n"));
    throw error;
  } finally {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "attack") await attacker(Number(process.argv[3]), process.argv[4] as string);
else await main();
