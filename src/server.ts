import { type Config, ConfigError, loadConfig } from "./config.ts";
import { DataDirInUseError } from "./db/data-dir-lock.ts";
import type { Database } from "./db/database.ts";
import { MigrationError } from "./db/migration-error.ts";
import { PGLITE_TEMPLATE_DIR, type PgliteThread, startPgliteThread } from "./db/pglite-thread.ts";
import { bindPort } from "./http/bind-port.ts";
import { createLogger, type Logger } from "./shared/logger.ts";

/**
 * The only process entry: config, port, database, then the rest of Vexil (serve.ts), and
 * shutdown. Anything wrong with the configuration (or the port) ends the start with one log
 * line that names the variable, before a file is created or a secret printed. The embedded
 * database starts on its own thread before the rest of the code is loaded, so that the two
 * (most of a start's CPU) run side by side.
 */
async function main() {
  const config = configOrExit();
  const logger = createLogger(config.logLevel, config.logFormat);
  const port = await bindPort(config.host, config.port).catch((error: NodeJS.ErrnoException) =>
    exitWith(logger, "invalid configuration", [portProblem(config, error)]),
  );
  // Until the server is up, a signal closes the database (PGlite flushes its files) and ends
  // the process; once it serves, shutdown drains requests first.
  let opened: Database | undefined;
  let thread: Promise<PgliteThread> | undefined;
  let stoppedDuringStart = false;
  let shutdown = async (signal: string): Promise<void> => {
    stoppedDuringStart = true;
    logger.info("stopping during the start", { signal });
    await (opened ?? (await thread?.catch(() => undefined)))?.close().catch(() => {});
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  // Before the database opens: Prisma's instrumentation must be registered first.
  const tracing = config.tracing ? await (await import("./http/tracing-sdk.ts")).startTracing() : null;
  if (config.database.kind === "pglite") {
    thread = startPgliteThread(config.database.dataDir, PGLITE_TEMPLATE_DIR);
    thread.catch(() => undefined); // awaited (and reported) by serve
  }
  try {
    const { serve } = await import("./serve.ts");
    const stop = await serve({
      config,
      logger,
      port,
      tracing,
      pgliteThread: thread,
      opened: (database) => {
        opened = database;
      },
    });
    let stopping = false;
    shutdown = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      await stop(signal);
      process.exit(0);
    };
  } catch (error) {
    // The signal closed the database under the start: a stop, which the shutdown above ends.
    if (stoppedDuringStart) return;
    if (!(error instanceof MigrationError || error instanceof DataDirInUseError)) throw error;
    logger.error(error.message);
    await opened?.close().catch(() => {});
    process.exit(1);
  }
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
