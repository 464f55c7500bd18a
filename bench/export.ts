// `npm run bench:export`: the export of 10,000 flags (issue 14.5: ≤ 2 s). Dataset: bench/dataset.ts
// (BENCH_EXPORT_FLAGS flags in 20 projects, 1 to 4 tags each, 2 strategies with 2 constraints
// each, a segment on every fifth) with no events, every flag active, plus two variants with an
// override per flag in development and a parent dependency on every tenth flag. A real Vexil
// server on 127.0.0.1 answers `POST /api/admin/features-batch/export` for every flag of
// `development` (features: []); each run times the request until the whole body is read.
// Options: BENCH_EXPORT_FLAGS (10000), BENCH_EXPORT_RUNS (10), BENCH_DATABASE_URL (PostgreSQL).
// Results: bench/results/export.json.

import { createApp } from "../src/app.ts";
import { bootstrap } from "../src/bootstrap.ts";
import { loadConfig } from "../src/config.ts";
import { applyMigrations } from "../src/db/migrate.ts";
import { createInProcessBus } from "../src/events/bus.ts";
import { listen } from "../src/http-server.ts";
import { exportDocument } from "../src/modules/import-export/export.read.ts";
import { createLogger } from "../src/shared/logger.ts";
import { openBenchDatabase } from "./bench-database.ts";
import { runBench } from "./bench-server.ts";
import { generateDataset } from "./dataset.ts";
import { databaseKind, saveResults, scenarioResult, startLoadMeter } from "./results.ts";

const env = process.env;
const FLAGS = Number(env.BENCH_EXPORT_FLAGS ?? 10_000);
const RUNS = Number(env.BENCH_EXPORT_RUNS ?? 10);
const ADMIN = "*:*.bench-export-admin-secret-0123456789";
const log = (m: string) => console.log(`[bench:export ${new Date().toISOString().slice(11, 19)}] ${m}`);

async function main() {
  const database = await openBenchDatabase("vexil_bench_export");
  await applyMigrations(database.adapterFactory);
  const config = loadConfig({
    ...env,
    INIT_ADMIN_API_TOKENS: ADMIN,
    INIT_ADMIN_PASSWORD: "Bench-Password-1",
  });
  const logger = createLogger("silent");
  await bootstrap(database.prisma, config, logger);
  const db = database.prisma;
  await generateDataset(db, { flags: FLAGS, projects: 20, events: 0 }, log);
  await db.$executeRawUnsafe(`UPDATE "Feature" SET "archivedAt" = NULL`);
  await db.$executeRawUnsafe(`UPDATE "FeatureEnvironment" SET variants = jsonb_build_array(
      jsonb_build_object('name', 'blue', 'weight', 500, 'weightType', 'variable', 'stickiness', 'default',
        'payload', jsonb_build_object('type', 'string', 'value', 'b'),
        'overrides', jsonb_build_array(jsonb_build_object('contextName', 'userId', 'values', jsonb_build_array('7')))),
      jsonb_build_object('name', 'green', 'weight', 500, 'weightType', 'variable', 'stickiness', 'default', 'overrides', '[]'::jsonb))
    WHERE "environmentName" = 'development'`);
  await db.$executeRawUnsafe(`INSERT INTO "FeatureDependency"("parentName", "childName")
    SELECT 'flag-' || lpad((i - 1)::text, 5, '0'), 'flag-' || lpad(i::text, 5, '0')
      FROM generate_series(10, ${FLAGS}, 10) i`);
  // Context fields: the three the strategies use (one with legal values), and ten unused ones.
  await db.$executeRawUnsafe(`INSERT INTO "ContextField"(name, stickiness, "legalValues")
    VALUES ('userId', true, '[]'::jsonb), ('appVersion', false, '[]'::jsonb),
           ('region', false, '[{"value": "eu"}, {"value": "us"}]'::jsonb)
    UNION ALL SELECT 'unused-' || g, false, '[]'::jsonb FROM generate_series(1, 10) g
    ON CONFLICT (name) DO NOTHING`);
  await db.$executeRawUnsafe("VACUUM ANALYZE");

  const deps = { config, db, bus: createInProcessBus(), logger, now: () => new Date() };
  const app = createApp({ ...deps, ready: async () => {} });
  const server = await listen(app, "127.0.0.1", 0);
  const meter = startLoadMeter({ postgres: Boolean(process.env.BENCH_DATABASE_URL) });
  const times: number[] = [];
  // The SQL statement and JSON.parse alone, as the resolver runs them (no HTTP, GraphQL, REST).
  const statement: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    await exportDocument(db, { environment: "development", features: [] });
    statement.push(performance.now() - started);
  }
  let summary: Record<string, number> = {};
  try {
    for (let run = 0; run <= RUNS; run++) {
      const started = performance.now();
      const res = await fetch(`${server.url}/api/admin/features-batch/export`, {
        method: "POST",
        headers: { authorization: ADMIN, "content-type": "application/json" },
        body: JSON.stringify({ environment: "development", features: [] }),
      });
      const text = await res.text();
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`export answered ${res.status}: ${text.slice(0, 300)}`);
      const doc = JSON.parse(text) as Record<string, unknown[]>;
      summary = {
        bytes: text.length,
        ...Object.fromEntries(Object.entries(doc).map(([k, v]) => [k, v.length])),
      };
      if (run === 0) log(`warm-up: ${Math.round(ms)} ms`);
      else times.push(ms);
    }
  } finally {
    await server.close();
    await app.close();
    await deps.bus.close();
  }
  await database.close();
  const at = (samples: number[], p: number) => {
    const sorted = [...samples].sort((a, b) => a - b);
    return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0);
  };
  const row = {
    database: database.kind,
    flags: FLAGS,
    runs: RUNS,
    p50: at(times, 0.5),
    max: at(times, 1),
    statementP50: at(statement, 0.5),
    ...summary,
  };
  console.table([row]);
  await saveResults("export", [
    scenarioResult(
      `export of every flag of an environment (${FLAGS} flags)`,
      { p50Ms: row.p50 },
      { database: databaseKind(), target: { p50Ms: 2000 }, otherLoad: meter.otherLoad(), details: row },
    ),
  ]);
  if (row.max > 2000) process.exitCode = 1;
}

runBench(main);
