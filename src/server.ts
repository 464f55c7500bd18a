import { createApp } from "./app.ts";
import { bootstrap } from "./bootstrap.ts";
import { loadConfig } from "./config.ts";
import { type Database, openDatabase } from "./db/database.ts";
import { applyMigrations, assertMigrated, MigrationError } from "./db/migrate.ts";
import { createEventBus } from "./events/bus.ts";
import { listen } from "./http-server.ts";
import { startDeliveryWorker } from "./jobs/delivery-worker.ts";
import { startEventCountRollup } from "./jobs/event-counts.ts";
import { startPotentiallyStaleMarker } from "./jobs/potentially-stale.ts";
import { startChangeRequestScheduler } from "./jobs/scheduled-change-requests.ts";
import { feedFor } from "./modules/live/feed.ts";
import { createLogger } from "./shared/logger.ts";

/** The only process entry: config, database, migrations, bootstrap, listen, shutdown. */
async function main() {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  // Until the server is up, a signal closes the database (PGlite flushes its files) and ends
  // the process; once it serves, shutdown drains requests first.
  let opened: Database | undefined;
  let shutdown = async (_signal: string): Promise<void> => {
    await opened?.close().catch(() => {});
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  const database = await openDatabase(config.database);
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
  const deps = { config, db: database.prisma, bus, logger, now: () => new Date() };
  const app = createApp({
    ...deps,
    ready: () => assertMigrated((sql) => database.prisma.$queryRawUnsafe(sql)),
  });
  const running = await listen(app, deps, config.host, config.port);
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
    await worker.stop();
    await bus.close();
    await database.close();
    logger.info("stopped");
    process.exit(0);
  };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
