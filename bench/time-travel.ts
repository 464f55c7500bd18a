// `npm run bench:time-travel`: the speed of time travel (issue 18) on a day of history.
// Dataset, loaded with SQL: FLAGS flags in `default` (development and production, one strategy
// each in production), then EVENTS toggles of production spread over one day, each with the
// flag's state after it, as the event recorder writes them. Measured in-process on the module's
// read functions (what the GraphQL resolvers call): one flag at a random instant, the whole
// environment at a random instant, and the diff of the environment over the whole day.
// Results: bench/results/time-travel.json.
import { applyMigrations } from "../src/db/migrate.ts";
import { Prisma } from "../src/generated/prisma/client.ts";
import { flagRecordJson } from "../src/modules/flag-record/flag-record.read.ts";
import { changesBetween } from "../src/modules/time-travel/changes.read.ts";
import { historyColumns } from "../src/modules/time-travel/flag-history.write.ts";
import { environmentAt, flagAt, projectFlagNames } from "../src/modules/time-travel/history.read.ts";
import { openBenchDatabase } from "./bench-database.ts";
import { databaseKind, saveResults, scenarioResult, startLoadMeter } from "./results.ts";

const env = process.env;
const FLAGS = Number(env.BENCH_TT_FLAGS ?? 10_000);
const EVENTS = Number(env.BENCH_TT_EVENTS ?? 1_000_000);
const SINGLE_RUNS = Number(env.BENCH_TT_SINGLE_RUNS ?? 1000);
const DAY_START = new Date("2026-06-01T00:00:00.000Z");
const DAY_MS = 24 * 3600 * 1000;
const log = (m: string) => console.log(`[bench:time-travel ${new Date().toISOString().slice(11, 19)}] ${m}`);

async function load(db: Awaited<ReturnType<typeof openBenchDatabase>>["prisma"]) {
  const start = DAY_START.toISOString();
  await db.$executeRawUnsafe(`INSERT INTO "Project" (id, name, "createdAt") VALUES ('default', 'Default', now())
                              ON CONFLICT DO NOTHING`);
  await db.$executeRawUnsafe(`INSERT INTO "Environment" (name, type) VALUES ('development', 'development'),
                              ('production', 'production') ON CONFLICT DO NOTHING`);
  await db.$executeRawUnsafe(
    `INSERT INTO "FeatureType" (id, name) VALUES ('release', 'Release') ON CONFLICT DO NOTHING`,
  );
  await db.$executeRawUnsafe(`INSERT INTO "ProjectEnvironment" ("projectId", "environmentName")
                              VALUES ('default', 'development'), ('default', 'production') ON CONFLICT DO NOTHING`);
  await db.$executeRawUnsafe(`
    INSERT INTO "Feature" (name, "projectId", "createdAt")
    SELECT 'f-' || i, 'default', timestamp '${start}' - interval '1 day' FROM generate_series(0, ${FLAGS - 1}) i`);
  await db.$executeRawUnsafe(`
    INSERT INTO "FeatureEnvironment" ("featureName", "environmentName", enabled)
    SELECT 'f-' || i, e, false FROM generate_series(0, ${FLAGS - 1}) i, unnest(ARRAY['development', 'production']) e`);
  await db.$executeRawUnsafe(`
    INSERT INTO "FeatureStrategy" (id, "featureName", "projectId", "environmentName", "strategyName", parameters)
    SELECT gen_random_uuid()::text, 'f-' || i, 'default', 'production', 'flexibleRollout',
           '{"rollout": "50", "stickiness": "default", "groupId": "x"}'::jsonb
      FROM generate_series(0, ${FLAGS - 1}) i`);
  // Each flag's state at creation, then EVENTS toggles in one day, each with its state after.
  await db.$executeRawUnsafe(`
    INSERT INTO "FeatureStateVersion" ("featureName", "eventType", "projectId", "createdAt", state, environments)
    SELECT f.name, 'feature-created', 'default', f."createdAt", ${historyColumns(Prisma.sql`r.s`).sql}
      FROM "Feature" f CROSS JOIN LATERAL (SELECT ${flagRecordJson(Prisma.sql`f`, { as: "jsonb" }).sql} AS s) r`);
  await db.$executeRawUnsafe(`
    CREATE TEMP TABLE toggles AS
    SELECT i, 'f-' || (i % ${FLAGS}) AS name, random() < 0.5 AS enabled,
           timestamp '${start}' + (i * ${DAY_MS / EVENTS}) * interval '1 millisecond' AS at
      FROM generate_series(1, ${EVENTS}) i`);
  await db.$executeRawUnsafe(`
    INSERT INTO "Event" (id, type, "createdAt", "createdBy", project, environment, "featureName")
    SELECT i, CASE WHEN enabled THEN 'feature-environment-enabled' ELSE 'feature-environment-disabled' END,
           at, 'bench', 'default', 'production', name FROM toggles`);
  await db.$executeRawUnsafe(`
    INSERT INTO "FeatureStateVersion" ("featureName", "eventId", "eventType", environment, "projectId", "createdBy",
                                       "createdAt", state, environments)
    SELECT t.name, t.i, CASE WHEN t.enabled THEN 'feature-environment-enabled' ELSE 'feature-environment-disabled' END,
           'production', 'default', 'bench', t.at, v.state,
           jsonb_set(v.environments, '{production,enabled}', to_jsonb(t.enabled))
      FROM toggles t JOIN "FeatureStateVersion" v ON v."featureName" = t.name AND v."eventId" IS NULL`);
  await db.$executeRawUnsafe(`ANALYZE`);
}

function randomInstant(): Date {
  return new Date(DAY_START.getTime() + Math.floor(Math.random() * DAY_MS));
}

async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const result = await work();
  return [performance.now() - started, result];
}

function percentile(sorted: number[], p: number): number {
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0) * 10) / 10;
}

function summary(name: string, samples: number[], extra: Record<string, unknown> = {}) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    name,
    runs: samples.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: percentile(sorted, 1),
    ...extra,
  };
}

async function main() {
  const database = await openBenchDatabase("vexil_bench_time_travel");
  await applyMigrations(database.adapterFactory);
  const db = database.prisma;
  log(`${database.kind}: loading ${FLAGS} flags and ${EVENTS} events`);
  const [loadMs] = await timed(() => load(db));
  log(`loaded in ${Math.round(loadMs / 1000)} s`);
  const rows = [];
  const meter = startLoadMeter({ postgres: Boolean(process.env.BENCH_DATABASE_URL) });

  const single: number[] = [];
  for (let i = 0; i < SINGLE_RUNS; i++) {
    const name = `f-${Math.floor(Math.random() * FLAGS)}`;
    const [ms, flag] = await timed(() => flagAt(db, name, randomInstant()));
    if (!flag?.state) throw new Error(`no state for ${name}`);
    single.push(ms);
  }
  rows.push(summary("one flag at a random instant", single));

  const environment: number[] = [];
  let listed = 0;
  for (let i = 0; i < 10; i++) {
    const [ms, flags] = await timed(() => environmentAt(db, "default", "production", randomInstant()));
    environment.push(ms);
    listed = flags.length;
  }
  rows.push(summary("environment at a random instant", environment, { flags: listed }));

  const diff: number[] = [];
  let changed = 0;
  const range = { from: DAY_START, to: new Date(DAY_START.getTime() + DAY_MS) };
  for (let i = 0; i < 5; i++) {
    const [ms, changes] = await timed(async () =>
      changesBetween(db, await projectFlagNames(db, "default", range.from), range, "production"),
    );
    diff.push(ms);
    changed = changes.length;
  }
  rows.push(summary(`diff of the environment over the day (${EVENTS} events)`, diff, { flags: changed }));

  console.table(rows);
  const otherLoad = meter.otherLoad();
  await saveResults(
    "time-travel",
    rows.map(({ name, p50, p99, ...details }) =>
      scenarioResult(
        `${name} (${FLAGS} flags)`,
        { p50Ms: p50, p99Ms: p99 },
        { database: databaseKind(), otherLoad, details },
      ),
    ),
  );
  await database.close();
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
