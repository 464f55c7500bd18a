import type { Server } from "node:http";
import { createApp } from "./app.ts";
import { bootstrap } from "./bootstrap.ts";
import type { Config } from "./config.ts";
import { type Database, openDatabase, openPgliteThread } from "./db/database.ts";
import { applyMigrations, assertMigrated } from "./db/migrate.ts";
import type { PgliteThread } from "./db/pglite-thread.ts";
import { observeStatements } from "./db/sql-observer.ts";
import { createEventBus } from "./events/bus.ts";
import { countForRequest } from "./http/request-log.ts";
import type { Tracing } from "./http/tracing-sdk.ts";
import { listen } from "./http-server.ts";
import { startClientMetricsRetention } from "./jobs/client-metrics-retention.ts";
import { startDeliveryWorker } from "./jobs/delivery-worker.ts";
import { startEventCountRollup } from "./jobs/event-counts.ts";
import { startPotentiallyStaleMarker } from "./jobs/potentially-stale.ts";
import { startReleasePlans } from "./jobs/release-plans.ts";
import { startChangeRequestScheduler } from "./jobs/scheduled-change-requests.ts";
import {
  createLoginLimiter,
  type LoginLimitStore,
  loginLimitsOf,
} from "./modules/access/login-limits.cache.ts";
import { startIdleMemoryReclaim } from "./shared/idle-memory.ts";
import type { Logger } from "./shared/logger.ts";

export type ServeStart = {
  config: Config;
  logger: Logger;
  /** Already listening (answers /health): the app is mounted on it. */
  port: Server;
  tracing: Tracing | null;
  /** The embedded database's thread, started by the entry before it loaded this module. */
  pgliteThread?: Promise<PgliteThread>;
  /** Called with the database once it is open, so that a signal during the start closes it. */
  opened(database: Database): void;
};

/**
 * Everything after the configuration and the port: the database (migrated), bootstrap, the
 * app, the jobs. Resolves with the shutdown to run on SIGTERM/SIGINT.
 */
export async function serve(start: ServeStart): Promise<(signal: string) => Promise<void>> {
  const { config, logger, tracing } = start;
  // LOG_LEVEL=debug: each request's access line counts its SQL statements and their time.
  const wrap = config.logLevel === "debug" ? observeStatements(countForRequest) : undefined;
  const thread = await start.pgliteThread;
  const database = thread ? openPgliteThread(thread, wrap) : await openDatabase(config.database, { wrap });
  start.opened(database);
  // Prisma's query compiler (WebAssembly, ~0.3 s) loads while the thread still opens PGlite.
  if (thread) await database.prisma.$connect();
  const applied = thread ? await thread.serving : await applyMigrations(database.adapterFactory);
  if (applied.length) logger.info("database migrated", { applied });
  const seeded = await bootstrap(database.prisma, config, logger);
  if (seeded.generatedAdminPassword) {
    console.log(
      `Admin user "${config.initAdmin.username}" created with password: ${seeded.generatedAdminPassword}`,
    );
  }
  if (seeded.generatedAdminToken) {
    console.log(`Admin API token (shown once, store it now): ${seeded.generatedAdminToken}`);
  }
  const bus = await createEventBus(
    {
      redisUrl: config.redisUrl,
      postgresUrl: config.database.kind === "postgres" ? config.database.url : undefined,
    },
    logger,
  );
  const loginLimiter = createLoginLimiter(loginLimitStore(config, database), loginLimitsOf(config));
  const app = createApp({
    config,
    db: database.prisma,
    bus,
    logger,
    now: () => new Date(),
    loginLimiter,
    ready: () => assertMigrated((sql) => database.prisma.$queryRawUnsafe(sql)),
    pool: database.pool,
  });
  const running = await listen(app, config.host, config.port, start.port);
  const scope = app.scope;
  const stopChangeRequestScheduler = startChangeRequestScheduler(scope);
  const stopStaleMarker = startPotentiallyStaleMarker(scope);
  const stopEventCountRollup = startEventCountRollup(scope);
  const stopMetricsRetention = startClientMetricsRetention(scope);
  const stopReleasePlans = startReleasePlans(scope);
  const worker = startDeliveryWorker(scope);
  const stopIdleMemoryReclaim = startIdleMemoryReclaim(logger);
  logger.info("Vexil listening", {
    url: running.url,
    graphql: `${running.url}/graphql`,
    docs: `${running.url}/docs`,
    database: config.database.kind === "pglite" ? config.database.dataDir : "postgresql",
    startMs: Math.round(process.uptime() * 1000),
  });

  return async (signal: string) => {
    logger.info("shutting down", { signal });
    stopChangeRequestScheduler();
    stopStaleMarker();
    stopEventCountRollup();
    stopMetricsRetention();
    stopReleasePlans();
    stopIdleMemoryReclaim();
    // Live subscriptions never finish by themselves: end them now, so that SSE responses
    // complete and only ordinary in-flight requests use the grace period.
    scope.services.feed.close();
    await running.close(config.shutdownGraceMs);
    // Requests are drained: the services close, writing the SDK metrics answered 202 for.
    await app.close();
    await worker.stop();
    await bus.close();
    await loginLimiter.close();
    await database.close();
    await tracing
      ?.shutdown()
      .catch((error) => logger.warn("traces not exported at shutdown", { error: String(error) }));
    logger.info("stopped");
  };
}

/** Where login attempts are counted so that every node sees them (login-limits.cache.ts). */
function loginLimitStore(config: Config, database: Database): LoginLimitStore {
  if (config.redisUrl) return { kind: "redis", url: config.redisUrl };
  if (database.pool) return { kind: "postgres", pool: database.pool };
  return { kind: "memory" };
}
