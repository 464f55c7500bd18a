// `npm run bench:writes`: write throughput (issue 16, item 1). A real server process (PostgreSQL
// with BENCH_DATABASE_URL, database `vexil_bench_writes` re-created; PGlite in a temporary
// folder otherwise) with BENCH_WRITE_FLAGS flags (1,000); autocannon in this process toggles a
// random flag on or off in development (`POST .../environments/development/on|off`, the spec's
// 4.1 writes) for BENCH_DURATION seconds (10) at each of BENCH_CONNECTIONS (2,10,50).
// Reports req/s and latency per level; any non-2xx answer fails the run.
// Targets: >= 362 req/s (2x Unleash 8.2's 181) with p99 <= 50 ms at 10 connections, and
// throughput at 50 connections >= 1.5x that at 2.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { openPostgres } from "../src/db/database.ts";
import { startServerProcess } from "../test/helpers/server-process.ts";

const env = process.env;
const FLAGS = Number(env.BENCH_WRITE_FLAGS ?? 1000);
const DURATION = Number(env.BENCH_DURATION ?? 10);
const LEVELS = (env.BENCH_CONNECTIONS ?? "2,10,50").split(",").map(Number);
const ADMIN = "*:*.bench-writes-admin-secret-0123456789";
const log = (m: string) => console.log(`[bench:writes ${new Date().toISOString().slice(11, 19)}] ${m}`);

async function databaseEnv(): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  const url = env.BENCH_DATABASE_URL;
  if (url) {
    const admin = openPostgres(url);
    await admin.prisma.$executeRawUnsafe("DROP DATABASE IF EXISTS vexil_bench_writes WITH (FORCE)");
    await admin.prisma.$executeRawUnsafe("CREATE DATABASE vexil_bench_writes");
    await admin.close();
    const target = new URL(url);
    target.pathname = "/vexil_bench_writes";
    return { env: { DATABASE_URL: target.toString() }, cleanup: async () => {} };
  }
  const dir = await mkdtemp(join(tmpdir(), "vexil-bench-writes-"));
  return { env: { VEXIL_DATA_DIR: dir }, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

async function createFlags(url: string) {
  for (let i = 0; i < FLAGS; i += 25) {
    const fields = Array.from(
      { length: Math.min(25, FLAGS - i) },
      (_, j) => `f${j}: createFeature(project: "default", input: { name: "w-${i + j}" }) { name }`,
    );
    const res = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { authorization: ADMIN, "content-type": "application/json" },
      body: JSON.stringify({ query: `mutation { ${fields.join("\n")} }` }),
    });
    const body = (await res.json()) as { errors?: unknown };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
  }
}

async function toggle(url: string, connections: number) {
  const result = await autocannon({
    url,
    connections,
    duration: DURATION,
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          method: "POST",
          path: `/api/admin/projects/default/features/w-${Math.floor(Math.random() * FLAGS)}/environments/development/${Math.random() < 0.5 ? "on" : "off"}`,
          headers: { authorization: ADMIN },
        }),
      },
    ],
  });
  const row = {
    connections,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
  log(
    `${connections} connections: ${row.requestsPerSecond} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, non-2xx ${row.non2xx}, errors ${row.errors}`,
  );
  return row;
}

async function main() {
  const db = await databaseEnv();
  const server = await startServerProcess({
    ...db.env,
    INIT_ADMIN_API_TOKENS: ADMIN,
    ...(env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: env.BENCH_SERVER_NODE_OPTIONS } : {}),
  });
  try {
    await createFlags(server.url);
    log(`${FLAGS} flags, ${env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite"}, ${DURATION} s per level`);
    const rows = [];
    for (const level of LEVELS) rows.push(await toggle(server.url, level));
    console.table(rows);
    console.log(JSON.stringify({ flags: FLAGS, duration: DURATION, rows }));
    if (rows.some((r) => r.non2xx || r.errors)) process.exitCode = 1;
  } finally {
    await server.stop();
    await db.cleanup();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
