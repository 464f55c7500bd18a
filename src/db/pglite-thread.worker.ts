// The embedded database's own thread (started by pglite-thread.ts): opens the PGlite data
// folder, brings it to this build's migrations, then serves it over a Unix socket in
// PostgreSQL's protocol until the main thread asks it to close.
import { parentPort, workerData } from "node:worker_threads";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { applyMigrations } from "./migrate.ts";
import { MigrationError } from "./migration-error.ts";
import { AwaitingPGliteFactory, createPglite, prepareDataDir } from "./pglite.ts";
import { servedSession } from "./pglite-session.ts";
import type { PgliteThreadMessage, PgliteThreadStart } from "./pglite-thread.ts";

const start = workerData as PgliteThreadStart;
const main = parentPort!;
const post = (message: PgliteThreadMessage) => main.postMessage(message);

try {
  await prepareDataDir(start.dataDir, start.template);
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
  main.once("message", async () => {
    await server.stop();
    await pglite.close();
    post({ kind: "closed" });
  });
  post({ kind: "ready", applied });
} catch (error) {
  post({
    kind: "failed",
    migration: error instanceof MigrationError,
    message: error instanceof MigrationError ? error.message : String((error as Error)?.stack ?? error),
  });
}
