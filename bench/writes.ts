import autocannon from "autocannon";
import { startServerProcess } from "../test/helpers/server-process.ts";
import { benchStorage } from "./bench-database.ts";
import { runBench } from "./bench-server.ts";

const env = process.env;
const FLAGS = Number(env.BENCH_WRITE_FLAGS ?? 1000);
const DURATION = Number(env.BENCH_DURATION ?? 10);
const LEVELS = (env.BENCH_CONNECTIONS ?? "2,10,50").split(",").map(Number);
const ADMIN = "*:*.bench-writes-admin-secret-0123456789";
const log = (m: string) => console.log(`[bench:writes ${new Date().toISOString().slice(11, 19)}] ${m}`);

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
  const db = await benchStorage("vexil_bench_writes");
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

runBench(main);
