// `npm run bench:sdk`: the SDK-facing answers over the benchmark dataset (10,000 flags, 2
// environments with strategies): the full client-features answer (plain and gzip), the same with
// a matching If-None-Match, and the frontend API for one context; 10 connections each.
// PGlite by default; BENCH_DATABASE_URL for PostgreSQL (database `vexil_bench_sdk` on it is
// dropped and re-created). BENCH_FLAGS (10000), BENCH_DURATION seconds per scenario (10),
// BENCH_CONNECTIONS (10).
import os from "node:os";
import autocannon from "autocannon";
import { createApp } from "../src/app.ts";
import { bootstrap } from "../src/bootstrap.ts";
import { loadConfig } from "../src/config.ts";
import { createPglite, type Database, openPglite, openPostgres } from "../src/db/database.ts";
import { applyMigrations } from "../src/db/migrate.ts";
import { createInProcessBus } from "../src/events/bus.ts";
import { listen } from "../src/http-server.ts";
import { hashSecret } from "../src/modules/access/credentials.ts";
import { createLogger } from "../src/shared/logger.ts";
import { generateDataset } from "./dataset.ts";

const env = process.env;
const flags = Number(env.BENCH_FLAGS ?? 10_000);
const duration = Number(env.BENCH_DURATION ?? 10);
const connections = Number(env.BENCH_CONNECTIONS ?? 10);
const CLIENT = "*:production.bench-client-secret-0123456789";
const FRONTEND = "*:production.bench-frontend-secret-0123456789";
const log = (m: string) => console.log(`[bench:sdk ${new Date().toISOString().slice(11, 19)}] ${m}`);

async function openDatabase(): Promise<Database> {
  const url = env.BENCH_DATABASE_URL;
  if (!url) return openPglite(await createPglite("memory://"));
  const admin = openPostgres(url);
  await admin.prisma.$executeRawUnsafe("DROP DATABASE IF EXISTS vexil_bench_sdk WITH (FORCE)");
  await admin.prisma.$executeRawUnsafe("CREATE DATABASE vexil_bench_sdk");
  await admin.close();
  const target = new URL(url);
  target.pathname = "/vexil_bench_sdk";
  return openPostgres(target.toString());
}

type Scenario = { name: string; path: string; token: string; headers?: Record<string, string> };

async function run(url: string, s: Scenario) {
  const result = await autocannon({
    url: `${url}${s.path}`,
    headers: { authorization: s.token, ...s.headers },
    connections,
    duration,
    workers: 1,
  });
  const row = {
    scenario: s.name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    kBPerRequest: Math.round(result.throughput.average / Math.max(1, result.requests.average) / 1024),
    errors:
      result.errors +
      result.timeouts +
      result.non2xx -
      (s.headers?.["if-none-match"] ? (result.statusCodeStats?.["304"]?.count ?? 0) : 0),
    status: Object.keys(result.statusCodeStats ?? {}).join(","),
  };
  log(
    `${row.scenario}: ${row.requestsPerSecond} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, ${row.kBPerRequest} kB, status ${row.status}`,
  );
  return row;
}

async function main() {
  const database = await openDatabase();
  log(`database: ${database.kind}`);
  await applyMigrations(database.adapterFactory);
  const config = loadConfig({ ...env, INIT_ADMIN_API_TOKENS: "*:*.bench-admin", LOG_LEVEL: "error" });
  const logger = createLogger("silent");
  await bootstrap(database.prisma, config, logger);
  await generateDataset(database.prisma, { flags, projects: 20, events: 0 }, log);
  for (const [secret, type] of [
    [CLIENT, "client"],
    [FRONTEND, "frontend"],
  ] as const) {
    await database.prisma.apiToken.create({
      data: {
        tokenName: type,
        type,
        environment: "production",
        projects: ["*"],
        secretHash: hashSecret(secret),
        displayPrefix: "bench",
      },
    });
  }
  const deps = { config, db: database.prisma, bus: createInProcessBus(), logger, now: () => new Date() };
  const server = await listen(createApp({ ...deps, ready: async () => {} }), deps, "127.0.0.1", 0);
  const first = await fetch(`${server.url}/api/client/features`, { headers: { authorization: CLIENT } });
  const etag = first.headers.get("etag") ?? "";
  const size = (await first.arrayBuffer()).byteLength;
  log(
    `full answer: ${(size / 2 ** 20).toFixed(1)} MiB, ${flags} flags; ${connections} connections, ${duration} s per scenario`,
  );
  const frontendPath =
    "/api/frontend?appName=web&userId=2&properties[appVersion]=2.1.0&properties[region]=eu";
  const rows = [];
  const scenarios: Scenario[] = [
    { name: "client features, full (identity)", path: "/api/client/features", token: CLIENT },
    {
      name: "client features, full (gzip)",
      path: "/api/client/features",
      token: CLIENT,
      headers: { "accept-encoding": "gzip" },
    },
    {
      name: "client features, If-None-Match",
      path: "/api/client/features",
      token: CLIENT,
      headers: { "if-none-match": etag },
    },
    { name: "frontend API, one context", path: frontendPath, token: FRONTEND },
  ];
  for (const s of scenarios) rows.push(await run(server.url, s));
  console.table(rows);
  console.log(
    JSON.stringify({ database: database.kind, flags, connections, duration, cpus: os.cpus().length, rows }),
  );
  await server.close(1000);
  await deps.bus.close();
  await database.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
