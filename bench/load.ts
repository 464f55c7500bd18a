// `npm run bench:load`: issue 12's proof under load. A real server process on PostgreSQL
// (BENCH_DATABASE_URL; database `vexil_bench_load` on it is dropped and re-created; without it,
// PGlite in a temporary folder) gets BENCH_LOAD_CONNECTIONS (200) concurrent connections for
// BENCH_SECONDS (60) of mixed reads and writes:
//   reads  50 %: a flag (REST), flag search (REST), the SDK answer (client token), the event log
//   writes 50 %: new flags, on/off of 20 contended flags in development, tags (a few values,
//                shared by many flags), description patches of the contended flags
// Every acknowledged (2xx) write is remembered. Afterwards, read from the database directly:
// - 0 errors, 0 timeouts, 0 non-2xx answers;
// - every acknowledged new flag exists, with exactly one feature-created event;
// - every acknowledged tag is on its flag, with exactly one feature-tagged event, and every
//   tag value has exactly one tag-created event;
// - every acknowledged description patch has exactly one feature-metadata-updated event;
// - no flag has more than one default strategy in development, and its enabled/disabled events
//   alternate (no repeated enable or disable back to back) and end in its current state.
// Exits 1 when a check fails. Results: bench/results/load.json.

import { randomUUID } from "node:crypto";
import autocannon from "autocannon";
import pg from "pg";
import { createPglite } from "../src/db/pglite.ts";
import { startServerProcess } from "../test/helpers/server-process.ts";
import { type BenchStorage, benchStorage } from "./bench-database.ts";
import { runBench } from "./bench-server.ts";
import { databaseKind, saveResults, scenarioResult, startLoadMeter } from "./results.ts";

const env = process.env;
const CONNECTIONS = Number(env.BENCH_LOAD_CONNECTIONS ?? 200);
const SECONDS = Number(env.BENCH_SECONDS ?? 60);
const HOT_FLAGS = 20;
const TAG_VALUES = 10;
const ADMIN = "*:*.bench-load-admin-secret-0123456789";
const log = (m: string) => console.log(`[bench:load ${new Date().toISOString().slice(11, 19)}] ${m}`);

/** Runs `work` with a query function on the (stopped) server's database. */
async function withDatabase<T>(target: BenchStorage, work: (query: Query) => Promise<T>): Promise<T> {
  if (target.url) {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      return await work((sql, params) => client.query(sql, params));
    } finally {
      await client.end();
    }
  }
  const pglite = await createPglite(target.dir as string);
  try {
    return await work((sql, params) => pglite.query(sql, params));
  } finally {
    await pglite.close();
  }
}

type Operation = {
  kind: "read" | "create" | "toggle" | "tag" | "describe";
  method: "GET" | "POST" | "PATCH";
  path: string;
  body?: unknown;
  token?: string;
  /** What an acknowledged answer proves was written. */
  key?: string;
};

const hot = (i: number) => `hot-${i}`;
const pick = (n: number) => Math.floor(Math.random() * n);

/** BENCH_LOAD_ONLY=reads|writes narrows the mix (to see which half costs what). */
const only = env.BENCH_LOAD_ONLY;

function nextOperation(clientToken: string): Operation {
  const roll =
    only === "reads" ? Math.random() / 2 : only === "writes" ? 0.5 + Math.random() / 2 : Math.random();
  const flag = hot(pick(HOT_FLAGS));
  if (roll < 0.15)
    return { kind: "read", method: "GET", path: `/api/admin/projects/default/features/${flag}` };
  if (roll < 0.3)
    return { kind: "read", method: "GET", path: "/api/admin/search/features?project=IS:default&limit=25" };
  if (roll < 0.4) return { kind: "read", method: "GET", path: "/api/client/features", token: clientToken };
  if (roll < 0.5) return { kind: "read", method: "GET", path: "/api/admin/events/search?limit=20" };
  if (roll < 0.6) {
    const name = `load-${randomUUID()}`;
    return {
      kind: "create",
      method: "POST",
      path: "/api/admin/projects/default/features",
      body: { name },
      key: name,
    };
  }
  if (roll < 0.8) {
    const state = Math.random() < 0.5 ? "on" : "off";
    const path = `/api/admin/projects/default/features/${flag}/environments/development/${state}`;
    return { kind: "toggle", method: "POST", path, key: path };
  }
  if (roll < 0.9) {
    const value = `load-${pick(TAG_VALUES)}`;
    return {
      kind: "tag",
      method: "POST",
      path: `/api/admin/features/${flag}/tags`,
      body: { type: "simple", value },
      key: `${flag}\n${value}`,
    };
  }
  const description = `described ${randomUUID()}`;
  return {
    kind: "describe",
    method: "PATCH",
    path: `/api/admin/projects/default/features/${flag}`,
    body: [{ op: "replace", path: "/description", value: description }],
    key: description,
  };
}

async function setUp(url: string): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { authorization: ADMIN, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  for (let i = 0; i < HOT_FLAGS; i++) await post("/api/admin/projects/default/features", { name: hot(i) });
  const token = await post("/api/admin/api-tokens", {
    tokenName: "bench-load",
    type: "client",
    environment: "development",
    projects: ["*"],
  });
  return String(token.secret);
}

type Acknowledged = Record<Operation["kind"], string[]> & { statuses: Map<number, number> };

async function drive(
  url: string,
  clientToken: string,
): Promise<{ result: autocannon.Result; acked: Acknowledged }> {
  const acked: Acknowledged = {
    read: [],
    create: [],
    toggle: [],
    tag: [],
    describe: [],
    statuses: new Map(),
  };
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    timeout: 30,
    requests: [
      {
        setupRequest: (request, context) => {
          const op = nextOperation(clientToken);
          (context as { op?: Operation }).op = op;
          return {
            ...request,
            method: op.method,
            path: op.path,
            headers: { authorization: op.token ?? ADMIN, "content-type": "application/json" },
            body: op.body === undefined ? undefined : JSON.stringify(op.body),
          };
        },
        onResponse: (status, _body, context) => {
          const op = (context as { op?: Operation }).op;
          acked.statuses.set(status, (acked.statuses.get(status) ?? 0) + 1);
          if (op?.key && status >= 200 && status < 300) acked[op.kind].push(op.key);
        },
      },
    ],
  });
  return { result, acked };
}

type Query = (sql: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/** Every check of the header, on the stopped server's database; returns the failures. */
async function verify(query: Query, acked: Acknowledged): Promise<string[]> {
  const failures: string[] = [];
  const count = async (sql: string, params: unknown[]) => Number((await query(sql, params)).rows[0]?.n);
  const created = await query(
    `SELECT f.name, (SELECT count(*) FROM "Event" e WHERE e.type = 'feature-created' AND e."featureName" = f.name) AS events
     FROM "Feature" f WHERE f.name = ANY($1)`,
    [acked.create],
  );
  if (created.rows.length !== acked.create.length)
    failures.push(`${acked.create.length - created.rows.length} acknowledged flags missing`);
  const wrongCreateEvents = created.rows.filter((r) => Number(r.events) !== 1);
  if (wrongCreateEvents.length)
    failures.push(`${wrongCreateEvents.length} new flags without exactly one event`);
  for (const key of new Set(acked.tag)) {
    const [feature, value] = key.split("\n");
    const present = await count(
      `SELECT count(*) AS n FROM "FeatureTag" WHERE "featureName" = $1 AND "tagType" = 'simple' AND "tagValue" = $2`,
      [feature, value],
    );
    const events = await count(
      `SELECT count(*) AS n FROM "Event" WHERE type = 'feature-tagged' AND "featureName" = $1 AND data->>'value' = $2`,
      [feature, value],
    );
    if (present !== 1 || events !== 1)
      failures.push(`tag ${key.replace("\n", ":")}: ${present} rows, ${events} events`);
  }
  const tagCreated = await query(
    `SELECT data->>'value' AS value, count(*) AS n FROM "Event" WHERE type = 'tag-created' GROUP BY 1 HAVING count(*) <> 1`,
  );
  for (const row of tagCreated.rows) failures.push(`tag value ${row.value}: ${row.n} tag-created events`);
  const described = await query(
    `SELECT data->>'description' AS description, count(*) AS n FROM "Event"
     WHERE type = 'feature-metadata-updated' AND data->>'description' = ANY($1) GROUP BY 1`,
    [acked.describe],
  );
  const describedOnce = described.rows.filter((r) => Number(r.n) === 1).length;
  if (describedOnce !== acked.describe.length)
    failures.push(`${acked.describe.length - describedOnce} acknowledged patches without exactly one event`);
  const strategies = await query(
    `SELECT "featureName", count(*) AS n FROM "FeatureStrategy"
     WHERE "environmentName" = 'development' AND "strategyName" = 'default' GROUP BY 1 HAVING count(*) > 1`,
  );
  for (const row of strategies.rows) failures.push(`${row.featureName}: ${row.n} default strategies`);
  for (let i = 0; i < HOT_FLAGS; i++) {
    const events = await query(
      `SELECT type FROM "Event" WHERE "featureName" = $1 AND environment = 'development'
         AND type IN ('feature-environment-enabled', 'feature-environment-disabled') ORDER BY id`,
      [hot(i)],
    );
    const types = events.rows.map((r) => r.type as string);
    const repeats = types.filter((type, j) => j > 0 && type === types[j - 1]).length;
    if (repeats) failures.push(`${hot(i)}: ${repeats} repeated enable/disable events`);
    const state = await query(
      `SELECT enabled FROM "FeatureEnvironment" WHERE "featureName" = $1 AND "environmentName" = 'development'`,
      [hot(i)],
    );
    const last = types.at(-1);
    if (last && (last === "feature-environment-enabled") !== Boolean(state.rows[0]?.enabled))
      failures.push(`${hot(i)}: last event ${last} but enabled = ${state.rows[0]?.enabled}`);
  }
  return failures;
}

async function main() {
  const target = await benchStorage("vexil_bench_load");
  const server = await startServerProcess({
    ...target.env,
    INIT_ADMIN_API_TOKENS: ADMIN,
    LOG_LEVEL: "info", // the default; startServerProcess also waits for the info line "Vexil listening"
    DATABASE_POOL_MAX: env.DATABASE_POOL_MAX ?? "10",
    // e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the server under this load.
    ...(env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: env.BENCH_SERVER_NODE_OPTIONS } : {}),
  });
  try {
    const clientToken = await setUp(server.url);
    log(`${CONNECTIONS} connections for ${SECONDS} s on ${target.url ? "PostgreSQL" : "PGlite"}`);
    const meter = startLoadMeter({ pids: [server.child.pid ?? 0], postgres: Boolean(target.url) });
    const { result, acked } = await drive(server.url, clientToken);
    const otherLoad = meter.otherLoad();
    const statuses = Object.fromEntries(acked.statuses);
    log(
      `${result.requests.total} requests, ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
    );
    log(`statuses ${JSON.stringify(statuses)}; errors ${result.errors}, timeouts ${result.timeouts}`);
    log(
      `acknowledged writes: ${acked.create.length} flags, ${acked.toggle.length} toggles, ${acked.tag.length} tags, ${acked.describe.length} patches`,
    );
    const failures: string[] = [];
    if (result.errors || result.timeouts)
      failures.push(`${result.errors} errors, ${result.timeouts} timeouts`);
    for (const [status, n] of acked.statuses)
      if (status >= 300) failures.push(`${n} answers with status ${status}`);
    await server.stop();
    failures.push(...(await withDatabase(target, (query) => verify(query, acked))));
    console.log(
      JSON.stringify({
        connections: CONNECTIONS,
        seconds: SECONDS,
        requests: result.requests.total,
        rps: Math.round(result.requests.average),
        p50: result.latency.p50,
        p99: result.latency.p99,
        statuses,
        acknowledged: {
          flags: acked.create.length,
          toggles: acked.toggle.length,
          tags: acked.tag.length,
          patches: acked.describe.length,
        },
        failures,
      }),
    );
    await saveResults("load", [
      scenarioResult(
        `${CONNECTIONS} connections of mixed reads and writes (every check passed: ${failures.length === 0})`,
        { reqPerSec: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99 },
        { database: databaseKind(), otherLoad, details: { statuses, failures: failures.length } },
      ),
    ]);
    if (failures.length) {
      for (const failure of failures) log(`FAILED: ${failure}`);
      process.exitCode = 1;
    } else log("all checks passed");
  } finally {
    await server.stop();
    await target.cleanup();
  }
}

runBench(main);
