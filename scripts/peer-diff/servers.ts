/**
 * The two servers peer-diff compares: an Unleash 8.2 (installed from npm into a scratch folder
 * outside the repository and started on its own fresh PostgreSQL database) and a Vexil
 * (`node dist/server.js` on another fresh database), unless their URLs are given.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import pg from "pg";

export const ADMIN_SECRET = "*:*.peerdiffadmin";
const UNLEASH_VERSION = "8.2.0";

export type PeerOptions = {
  pgUrl: string;
  unleashDir: string;
  unleashUrl?: string;
  vexilUrl?: string;
  unleashPort: number;
  vexilPort: number;
};

export type Running = { url: string; stop: () => Promise<void> };

export async function freshDatabase(pgUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** `npm install unleash-server@8.2.0` into `dir` unless it is there. */
function installUnleash(dir: string) {
  const pkg = resolve(dir, "node_modules/unleash-server/package.json");
  if (existsSync(pkg)) return;
  mkdirSync(dir, { recursive: true });
  if (!existsSync(resolve(dir, "package.json")))
    writeFileSync(resolve(dir, "package.json"), '{"private":true}\n');
  console.log(`installing unleash-server@${UNLEASH_VERSION} into ${dir} (a few minutes)`);
  execFileSync("npm", ["install", `unleash-server@${UNLEASH_VERSION}`, "--no-audit", "--no-fund"], {
    cwd: dir,
    stdio: "inherit",
    timeout: 15 * 60_000,
  });
}

/** The start script: Unleash's documented `start(options)`, one admin token, private addon URLs allowed. */
function unleashScript(database: string, port: number): string {
  const url = new URL(database);
  const db = {
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username || "postgres"),
    password: decodeURIComponent(url.password),
    database: url.pathname.slice(1),
    ssl: false,
  };
  const options = {
    db,
    server: { port },
    logLevel: "error",
    allowPrivateUrlInIntegration: true,
    authentication: {
      initApiTokens: [
        { environment: "*", project: "*", secret: ADMIN_SECRET, type: "admin", tokenName: "admin" },
      ],
    },
  };
  return `require("unleash-server").start(${JSON.stringify(options)}).then(
  () => console.log("peer-diff: unleash ready"),
  (error) => { console.error(error); process.exit(1); });\n`;
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((done) => {
      if (child.exitCode !== null) return done();
      child.once("exit", () => done());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
    });
}

async function waitHealthy(
  url: string,
  child: ChildProcess,
  what: string,
  probe: string,
  timeoutMs = 180_000,
) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}${probe}`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${what} did not answer ${url}${probe} within ${timeoutMs / 1000} s`);
}

function logTo(child: ChildProcess, file: string) {
  const chunks: Buffer[] = [];
  child.stdout?.on("data", (c: Buffer) => chunks.push(c));
  child.stderr?.on("data", (c: Buffer) => chunks.push(c));
  child.once("exit", () => writeFileSync(file, Buffer.concat(chunks)));
}

export async function startUnleash(options: PeerOptions): Promise<Running> {
  if (options.unleashUrl) return { url: options.unleashUrl, stop: async () => {} };
  installUnleash(options.unleashDir);
  const database = await freshDatabase(options.pgUrl, "unleash_peer_diff");
  const script = resolve(options.unleashDir, "peer-diff-start.cjs");
  writeFileSync(script, unleashScript(database, options.unleashPort));
  const child = spawn(process.execPath, [script], {
    cwd: options.unleashDir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  logTo(child, resolve(options.unleashDir, "peer-diff-unleash.log"));
  const url = `http://127.0.0.1:${options.unleashPort}`;
  await waitHealthy(url, child, "Unleash", "/health");
  return { url, stop: stopper(child) };
}

export async function startVexil(options: PeerOptions, repo: string): Promise<Running> {
  if (options.vexilUrl) return { url: options.vexilUrl, stop: async () => {} };
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { cwd: repo, stdio: "inherit" });
  const database = await freshDatabase(options.pgUrl, "vexil_peer_diff");
  const child = spawn(process.execPath, ["dist/server.js"], {
    cwd: repo,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      DATABASE_URL: database,
      PORT: String(options.vexilPort),
      HOST: "127.0.0.1",
      INIT_ADMIN_API_TOKENS: ADMIN_SECRET,
      INIT_ADMIN_PASSWORD: "Peer-Diff-Admin-Pa55!",
      LOG_LEVEL: "error",
      VEXIL_METRICS_FLUSH_MS: "0",
    },
  });
  logTo(child, "/tmp/peer-diff-vexil.log");
  const url = `http://127.0.0.1:${options.vexilPort}`;
  await waitHealthy(url, child, "Vexil", "/ready");
  return { url, stop: stopper(child) };
}
