// The embedded database's own thread (started by pglite-thread.ts): opens the PGlite data
// folder, brings it to this build's migrations, then serves it over a Unix socket in
// PostgreSQL's protocol until the main thread asks it to close.
import { parentPort, workerData } from "node:worker_threads";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { startIdleMemoryReclaim } from "../shared/idle-memory.ts";
import { createLogger } from "../shared/logger.ts";
import { DataDirInUseError, lockDataDir } from "./data-dir-lock.ts";
import { applyMigrations } from "./migrate.ts";
import { MigrationError } from "./migration-error.ts";
import { AwaitingPGliteFactory, createPglite, prepareDataDir } from "./pglite.ts";
import { servedSession } from "./pglite-session.ts";
import type { PgliteThreadMessage, PgliteThreadStart } from "./pglite-thread.ts";

const start = workerData as PgliteThreadStart;
const main = parentPort!;
const post = (message: PgliteThreadMessage) => main.postMessage(message);

let unlock: (() => Promise<void>) | undefined;
try {
  await prepareDataDir(start.dataDir, start.template);
  unlock = await lockDataDir(start.dataDir);
  const pglite = await createPglite(start.dataDir);
  const applied = await applyMigrations(new AwaitingPGliteFactory(pglite)).catch(async (error) => {
    await pglite.close();
    throw error;
  });
  // One connection: PGlite is one PostgreSQL session, so the main thread's pool has one too.
  const server = new PGLiteSocketServer({
    db: servedSession(pglite),
    path: start.socketPath,
    maxConnections: 1,
  });
  await server.start();
  // This thread's heap is its own: the main thread's reclaim does not reach it.
  const stopIdleMemoryReclaim = startIdleMemoryReclaim(createLogger("warn"));
  main.once("message", async () => {
    stopIdleMemoryReclaim();
    await server.stop();
    await pglite.close();
    await unlock?.();
    post({ kind: "closed" });
  });
  post({ kind: "ready", applied });
} catch (error) {
  await unlock?.();
  const told = error instanceof MigrationError || error instanceof DataDirInUseError;
  post({
    kind: "failed",
    migration: error instanceof MigrationError,
    locked: error instanceof DataDirInUseError,
    message: told ? error.message : String((error as Error)?.stack ?? error),
  });
}
