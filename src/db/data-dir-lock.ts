import { readFile, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join, resolve } from "node:path";

/**
 * The embedded database is one PostgreSQL session over files: two processes on one data folder
 * overwrite each other's pages and lose writes silently. Like PostgreSQL's postmaster.pid, a
 * lock file in the folder names the process that has it open; another process stops at start.
 * A lock left by a process that is gone (kill -9, a power cut) is taken over.
 */
const LOCK_FILE = "vexil.lock";

type LockHolder = { pid: number; host: string; startedAt: string };

/** The folder is in use by a live process: the start stops with this message. */
export class DataDirInUseError extends Error {
  override name = "DataDirInUseError";
}

/**
 * Takes the data folder's lock (the folder must exist); resolves with its release. An
 * in-memory database (`memory://`) is nobody else's: nothing to lock.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  if (dataDir.startsWith("memory://")) return async () => undefined;
  const file = join(dataDir, LOCK_FILE);
  const mine: LockHolder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(file, `${JSON.stringify(mine)}\n`, { flag: "wx" });
      return () => releaseIfMine(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = await readHolder(file);
    if (holder && isAlive(holder)) {
      throw new DataDirInUseError(
        `The data folder ${resolve(dataDir)} is in use by process ${holder.pid} (since ${holder.startedAt}): ` +
          `stop it, or set VEXIL_DATA_DIR to another folder. If no such process runs, delete ${resolve(file)}.`,
      );
    }
    // Left behind by a process that is gone: take it over.
    await unlink(file).catch(() => undefined);
  }
  throw new DataDirInUseError(
    `The data folder ${resolve(dataDir)} is being opened by another process right now.`,
  );
}

async function readHolder(file: string): Promise<LockHolder | null> {
  try {
    const holder = JSON.parse(await readFile(file, "utf8")) as LockHolder;
    return Number.isInteger(holder.pid) ? holder : null;
  } catch {
    return null;
  }
}

/** Alive on this machine, and not this very process (a container restarts with the same pid). */
function isAlive(holder: LockHolder): boolean {
  if (holder.host !== hostname() || holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function releaseIfMine(file: string): Promise<void> {
  const holder = await readHolder(file);
  if (holder?.pid === process.pid && holder.host === hostname()) await unlink(file).catch(() => undefined);
}
