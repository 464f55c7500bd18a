import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { projectRoot } from "../shared/project-root.ts";
import { DataDirInUseError } from "./data-dir-lock.ts";
import { MigrationError } from "./migration-error.ts";

/**
 * A migrated, empty PGlite data folder made by the build (scripts/build.mjs). Creating a new
 * PGlite folder runs initdb in WebAssembly, several seconds of CPU; copying this is a fraction
 * of a second, and its migrations are already applied.
 */
export const PGLITE_TEMPLATE_DIR = join(projectRoot(), "dist", "pglite-template");

export type PgliteThreadStart = { dataDir: string; template?: string; socketPath: string };
export type PgliteThreadMessage =
  | { kind: "ready"; applied: string[] }
  | { kind: "failed"; migration: boolean; locked: boolean; message: string }
  | { kind: "closed" };

/** The embedded database, served by its own thread (see pglite-thread.worker.ts). */
export type PgliteThread = {
  /** Folder of its Unix socket, named as node-postgres names one: `<dir>/.s.PGSQL.5432`. */
  socketDir: string;
  /**
   * Resolves, with the migrations it applied, once the thread serves the socket; rejects (with
   * a MigrationError when the folder can't be brought to this build's schema, a DataDirInUseError
   * when another process has it open) if it can't.
   */
  serving: Promise<string[]>;
  /** Closes the socket and the data folder (PGlite flushes it), then ends the thread. */
  close(): Promise<void>;
};

export const PGLITE_THREAD_PORT = 5432;

/**
 * Starts the embedded database on its own thread and resolves at once. The server's process
 * entry calls this before it loads the rest of Vexil, so opening PGlite (most of a restart's CPU:
 * WebAssembly start-up, catalogue reads, the migration check) runs on the second core while the
 * main thread loads the code and Prisma's query compiler; the main thread then talks to it as to
 * any PostgreSQL server, once `serving` has resolved.
 */
export async function startPgliteThread(dataDir: string, template?: string): Promise<PgliteThread> {
  const socketDir = await mkdtemp(join(os.tmpdir(), "vexil-db-"));
  const worker = startWorker({
    dataDir,
    template,
    socketPath: join(socketDir, `.s.PGSQL.${PGLITE_THREAD_PORT}`),
  });
  const serving = nextMessage(worker).then((first) => {
    if (first.kind === "ready") return first.applied;
    const message = first.kind === "failed" ? first.message : "the database thread ended";
    if (first.kind === "failed" && first.locked) throw new DataDirInUseError(message);
    throw first.kind === "failed" && first.migration ? new MigrationError(message) : new Error(message);
  });
  // Whoever awaits `serving` sees its failure; until then it must not count as unhandled.
  serving.catch(() => undefined);
  let closing: Promise<void> | undefined;
  return {
    socketDir,
    serving,
    close() {
      closing ??= (async () => {
        if (await serving.then(() => true).catch(() => false)) {
          const closed = nextMessage(worker);
          worker.postMessage("close");
          await closed.catch(() => undefined);
        }
        await worker.terminate();
        await rm(socketDir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}

/**
 * The worker's file beside this one: its bundle in dist/, or its source when Vexil runs from
 * its sources (tsx): a worker does not get tsx's loader from `--import tsx` on Node 20, so it
 * registers it before loading the source.
 */
function startWorker(start: PgliteThreadStart): Worker {
  if (!import.meta.url.endsWith(".ts")) {
    return new Worker(new URL("./pglite-thread.worker.js", import.meta.url), { workerData: start });
  }
  const source = JSON.stringify(new URL("./pglite-thread.worker.ts", import.meta.url).href);
  const bootstrap = `import("tsx/esm/api").then(({ register }) => { register(); return import(${source}); })`;
  return new Worker(bootstrap, { eval: true, workerData: start });
}

function nextMessage(worker: Worker): Promise<PgliteThreadMessage> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
    };
    const onMessage = (message: PgliteThreadMessage) => {
      cleanup();
      resolve(message);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new Error(`the database thread exited with code ${code}`));
    };
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
  });
}
