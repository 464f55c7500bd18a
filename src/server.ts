import { createApp } from "./app.ts";
import { bootstrap } from "./bootstrap.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { type Database, openDatabase, PGLITE_TEMPLATE_DIR } from "./db/database.ts";
import { applyMigrations, assertMigrated, MigrationError } from "./db/migrate.ts";
import { observeStatements } from "./db/sql-observer.ts";
import { createEventBus } from "./events/bus.ts";
import { countForRequest } from "./http/request-log.ts";
import { startTracing } from "./http/tracing-sdk.ts";
import { bindPort, listen } from "./http-server.ts";
import { startDeliveryWorker } from "./jobs/delivery-worker.ts";
import { startEventCountRollup } from "./jobs/event-counts.ts";
import { startPotentiallyStaleMarker } from "./jobs/potentially-stale.ts";
import { startChangeRequestScheduler } from "./jobs/scheduled-change-requests.ts";
import { createLoginLimiter, type LoginLimitStore } from "./modules/access/login-limits.ts";
import { metricsIngestor } from "./modules/client-metrics/ingestor.ts";
import { feedFor } from "./modules/live/feed.ts";
import { createLogger, type Logger } from "./shared/logger.ts";

/**
 * The only process entry: config, port, database, migrations, bootstrap, serve, shutdown.
 * Anything wrong with the configuration (or the port) ends the start with one log line that
 * names the variable, before a file is created or a secret printed.
 */
async function main() {
  const config = configOrExit();
  const logger = createLogger(config.logLevel);
  const port = await bindPort(config.host, config.port).catch((error: NodeJS.ErrnoException) =>
    exitWith(logger, "invalid configuration", [portProblem(config, error)]),
  );
  // Until the server is up, a signal closes the database (PGlite flushes its files) and ends
  // the process; once it serves, shutdown drains requests first.
  let opened: Database | undefined;
  let shutdown = async (_signal: string): Promise<void> => {
    await opened?.close().catch(() => {});
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  // Before the database opens: Prisma's instrumentation must be registered first.
  const tracing = config.tracing ? await startTracing() : null;
  const database = await openDatabase(config.database, {
    pgliteTemplate: PGLITE_TEMPLATE_DIR,
    // LOG_LEVEL=debug: each request's access line counts its SQL statements and their time.
    wrap: config.logLevel === "debug" ? observeStatements(countForRequest) : undefined,
  });
  opened = database;
  try {
    const applied = await applyMigrations(database.adapterFactory);
    if (applied.length) logger.info("database migrated", { applied });
  } catch (error) {
    if (error instanceof MigrationError) {
      logger.error(error.message);
      await database.close();
      process.exit(1);
    }
    throw error;
  }
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
  const loginLimiter = createLoginLimiter(loginLimitStore(config, database), {
    perAccountAndAddress: config.auth.loginRateLimitPerMinute,
    perAddress: config.auth.loginAddressRateLimitPerMinute,
  });
  const deps = { config, db: database.prisma, bus, logger, now: () => new Date(), loginLimiter };
  const app = createApp({
    ...deps,
    ready: () => assertMigrated((sql) => database.prisma.$queryRawUnsafe(sql)),
    pool: database.pool,
  });
  const running = await listen(app, deps, config.host, config.port, port);
  const stopChangeRequestScheduler = startChangeRequestScheduler(deps);
  const stopStaleMarker = startPotentiallyStaleMarker(deps);
  const stopEventCountRollup = startEventCountRollup(deps);
  const worker = startDeliveryWorker(deps);
  logger.info("Vexil listening", {
    url: running.url,
    graphql: `${running.url}/graphql`,
    docs: `${running.url}/docs`,
    database:
      database.kind === "pglite" && config.database.kind === "pglite"
        ? config.database.dataDir
        : "postgresql",
    startMs: Math.round(process.uptime() * 1000),
  });

  let stopping = false;
  shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down", { signal });
    stopChangeRequestScheduler();
    stopStaleMarker();
    stopEventCountRollup();
    // Live subscriptions never finish by themselves: end them now, so that SSE responses
    // complete and only ordinary in-flight requests use the grace period.
    feedFor(deps).close();
    await running.close(config.shutdownGraceMs);
    // Requests are drained: write the SDK metrics they were answered 202 for.
    await metricsIngestor(deps)
      .close()
      .catch((error) => logger.error("SDK metrics not written at shutdown", { error: String(error) }));
    await worker.stop();
    await bus.close();
    await loginLimiter.close();
    await database.close();
    await tracing
      ?.shutdown()
      .catch((error) => logger.warn("traces not exported at shutdown", { error: String(error) }));
    logger.info("stopped");
    process.exit(0);
  };
}

/** Where login attempts are counted so that every node sees them (login-limits.ts). */
function loginLimitStore(config: Config, database: Database): LoginLimitStore {
  if (config.redisUrl) return { kind: "redis", url: config.redisUrl };
  if (database.pool) return { kind: "postgres", pool: database.pool };
  return { kind: "memory" };
}

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return exitWith(createLogger("info"), "invalid configuration", error.problems);
  }
}

function portProblem(config: Config, error: NodeJS.ErrnoException) {
  const where = `${config.port} on ${config.host}`;
  if (error.code === "EADDRNOTAVAIL" || error.code === "ENOTFOUND") {
    return { variable: "HOST", reason: `${config.host} is not an address of this machine` };
  }
  const reason =
    error.code === "EADDRINUSE"
      ? `${where} is already in use`
      : error.code === "EACCES"
        ? `${where} needs privileges this process does not have`
        : `${where} cannot be listened on: ${error.code ?? error.message}`;
  return { variable: "PORT", reason };
}

/** One log line naming each variable and why, then exit 1. */
function exitWith(logger: Logger, msg: string, problems: { variable: string; reason: string }[]): never {
  logger.error(`${msg}: ${problems.map((p) => `${p.variable} ${p.reason}`).join("; ")}`, { problems });
  process.exit(1);
}

main().catch((error) => {
  createLogger("info").error("start failed", { error: String((error as Error)?.stack ?? error) });
  process.exit(1);
});
