// A Vexil server inside the bench process, on a bench database (bench-database.ts): the
// benchmarks that measure a running server all start and stop it the same way.
import { createApp } from "../src/app.ts";
import { bootstrap } from "../src/bootstrap.ts";
import type { Config } from "../src/config.ts";
import { loadConfig } from "../src/config.ts";
import type { Database } from "../src/db/database.ts";
import { applyMigrations } from "../src/db/migrate.ts";
import { createInProcessBus } from "../src/events/bus.ts";
import { listen } from "../src/http-server.ts";
import { createLogger, type Logger } from "../src/shared/logger.ts";

/** Migrates and bootstraps `database` with the process environment plus the bench's `settings`. */
export async function prepareBenchDatabase(database: Database, settings: Record<string, string>) {
  await applyMigrations(database.adapterFactory);
  const config = loadConfig({ ...process.env, ...settings });
  const logger = createLogger("silent");
  await bootstrap(database.prisma, config, logger);
  return { config, logger };
}

export type BenchServer = { url: string; close: () => Promise<void> };

/** Serves `database` on a free port of 127.0.0.1; `close` stops the server, its event bus and the database. */
export async function serveBenchDatabase(
  database: Database,
  { config, logger }: { config: Config; logger: Logger },
): Promise<BenchServer> {
  const deps = { config, db: database.prisma, bus: createInProcessBus(), logger, now: () => new Date() };
  const app = createApp({ ...deps, ready: async () => {} });
  const server = await listen(app, "127.0.0.1", 0);
  return {
    url: server.url,
    close: async () => {
      await server.close(1000);
      await app.close();
      await deps.bus.close();
      await database.close();
    },
  };
}

/** Runs a benchmark's main: a failure is printed and the process exits with 1. */
export function runBench(main: () => Promise<void>) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
