import { isDeepStrictEqual } from "node:util";
import { type App, createApp } from "../../src/app.ts";
import { bootstrap } from "../../src/bootstrap.ts";
import { type Config, loadConfig } from "../../src/config.ts";
import type { AppDeps, AppScope } from "../../src/context.ts";
import type { AdapterWrapper, Database } from "../../src/db/database.ts";
import { assertMigrated } from "../../src/db/migrate.ts";
import { createInProcessBus } from "../../src/events/bus.ts";
import type { EventInput } from "../../src/events/record.ts";
import { payloadProblems } from "../../src/events/stored-payloads.ts";
import { listen, type RunningServer } from "../../src/http-server.ts";
import { createLoginLimiter } from "../../src/modules/access/login-limits.cache.ts";
import { createLogger } from "../../src/shared/logger.ts";
import { ADMIN_TOKEN, TEST_ADMIN_ENV } from "./admin.ts";
import { createTestDatabase } from "./database.ts";

export { ADMIN_TOKEN };

export type TestApp = {
  app: App;
  /** The dependencies the app was given and the services it built (`deps.services`). */
  deps: AppScope;
  database: Database;
  config: Config;
  /** Sets the clock every service sees (default: real time). */
  setNow(date: Date | null): void;
  gql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    token?: string | null,
  ): Promise<{ data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] }>;
  rest(
    method: string,
    path: string,
    body?: unknown,
    token?: string | null,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
};

/**
 * A Vexil app on its own fresh database, bootstrapped with ADMIN_TOKEN; requests run in-process.
 * With the usual admin (`env` sets no other INIT_ADMIN_*), the database is a copy of the template
 * global setup already bootstrapped with it, and this app's own bootstrap finds everything in
 * place, as on a restart: the first start's work (a deliberately slow password hash, ~40
 * statements) is done once per run, not once per file. Bootstrap's first start is tested on
 * a database that was never bootstrapped (test/foundation/bootstrap.test.ts).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    wrapAdapter?: AdapterWrapper;
    log?: (line: string) => void;
    /** A migrated database the test made itself (a migration's test), instead of a fresh copy. */
    database?: Database;
  } = {},
): Promise<TestApp> {
  const config = loadConfig({ ...TEST_ADMIN_ENV, ...env });
  const bootstrapped = isDeepStrictEqual(config.initAdmin, loadConfig(TEST_ADMIN_ENV).initAdmin);
  const database = options.database ?? (await createTestDatabase(options.wrapAdapter, { bootstrapped }));
  const logger = options.log ? createLogger("debug", options.log) : createLogger("silent");
  await bootstrap(database.prisma, config, logger);
  let fixedNow: Date | null = null;
  const deps: AppDeps = {
    config,
    db: database.prisma,
    bus: createInProcessBus(),
    logger,
    now: () => fixedNow ?? new Date(),
    checkRestResponses: true,
    // On PostgreSQL, login attempts are counted in the database, as on a server node.
    loginLimiter: createLoginLimiter(
      database.pool ? { kind: "postgres", pool: database.pool } : { kind: "memory" },
      {
        perAccountAndAddress: config.auth.loginRateLimitPerMinute,
        perAddress: config.auth.loginAddressRateLimitPerMinute,
      },
    ),
  };
  const app = createApp({
    ...deps,
    pool: database.pool,
    ready: () => assertMigrated((sql) => database.prisma.$queryRawUnsafe(sql)),
  });
  return {
    app,
    deps: app.scope,
    database,
    config,
    setNow: (date) => {
      fixedNow = date;
    },
    ...apiClient((url, init) => app.fetch(url, init), "http://vexil.test"),
    async close() {
      try {
        const problems = await eventPayloadProblems(database);
        if (problems.length > 0) {
          throw new Error(`Events outside the event catalogue:\n${problems.slice(0, 10).join("\n")}`);
        }
      } finally {
        await app.close();
        await deps.bus.close();
        await database.close();
      }
    },
  };
}

/**
 * Where the events a test app recorded differ from their type's entry in the event catalogue
 * (src/events/catalogue.ts); `close` fails on any, so every write a test makes checks its
 * events' payloads, as `checkRestResponses` checks its answers. The recorder gives every event a
 * summary: rows a test stored itself, without one, are not the recorder's.
 */
export async function eventPayloadProblems(database: Database): Promise<string[]> {
  const events = await database.prisma.event.findMany({
    where: { summary: { not: null } },
    select: { id: true, type: true, data: true, preData: true },
  });
  return events.flatMap((event) =>
    payloadProblems(event).map((p) => `event ${event.id} (${event.type}): ${p.path} ${p.message}`),
  );
}

export type ListeningTestApp = TestApp & { url: string; server: RunningServer };

/**
 * A test app (as `createTestApp`) that also listens on a free local port, for what needs a real
 * socket (WebSockets, SDKs, raw HTTP); `close` stops the server (no grace period), then the app.
 */
export async function createListeningTestApp(
  env: Record<string, string> = {},
  options: Parameters<typeof createTestApp>[1] = {},
): Promise<ListeningTestApp> {
  const t = await createTestApp(env, options);
  const server = await listen(t.app, "127.0.0.1", 0);
  return {
    ...t,
    url: server.url,
    server,
    async close() {
      await server.close(0);
      await t.close();
    },
  };
}

/**
 * Runs `action` with the clock every service sees set to `date` (to make, through the API, a
 * state of the past: a flag created in January), then gives back the real clock.
 */
export async function withClock<T>(t: TestApp, date: Date, action: () => Promise<T>): Promise<T> {
  t.setNow(date);
  try {
    return await action();
  } finally {
    t.setNow(null);
  }
}

/**
 * What `runWrite` needs to write as the system, for the few tests that must write past the API
 * (a transaction rolled back or held open on purpose); each such test says why.
 */
export function systemWriteContext(t: TestApp) {
  return {
    db: t.deps.db,
    bus: t.deps.bus,
    eventHooks: t.deps.eventHooks,
    changeKinds: t.deps.changeKinds,
    principal: null,
    config: t.config,
    now: () => new Date(),
  };
}

/**
 * A `feature-created` event for a direct write to record (see systemWriteContext), with the
 * payload the catalogue gives the type.
 */
export function flagCreatedEvent(
  name: string,
  project = "default",
  description: string | null = null,
): EventInput<"feature-created"> {
  const data = { name, project, type: "release", description, stale: false, impressionData: false };
  return {
    type: "feature-created",
    project,
    featureName: name,
    data: { ...data, createdAt: new Date().toISOString(), archived: false },
  };
}

/**
 * `gql` and `rest` as TestApp has them, over `fetchFn` to the Vexil at `base`: in process
 * (`app.fetch`), or over HTTP to a server process or another node (`fetch`, its URL). Calls send
 * `token` unless they give one (null: none).
 */
export function apiClient(
  fetchFn: (url: string, init: RequestInit) => Response | Promise<Response>,
  base: string,
  token = ADMIN_TOKEN,
): Pick<TestApp, "gql" | "rest"> {
  const headers = (given: string | null | undefined) => ({
    "content-type": "application/json",
    ...(given === null ? {} : { authorization: given ?? token }),
  });
  return {
    async gql(query, variables, given) {
      const res = await fetchFn(`${base}/graphql`, {
        method: "POST",
        headers: headers(given),
        body: JSON.stringify({ query, variables }),
      });
      return res.json();
    },
    async rest(method, path, body, given) {
      const res = await fetchFn(`${base}${path}`, {
        method,
        headers: headers(given),
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? safeJson(text) : undefined, headers: res.headers };
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
