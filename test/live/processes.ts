import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { inject } from "vitest";
import { openPostgres } from "../../src/db/database.ts";
import { databaseUrl } from "../helpers/postgres.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * Storage for server processes: a new PostgreSQL database made from the migrated template
 * (with TEST_DATABASE_URL), else a fresh PGlite folder (the server migrates it on start).
 */
export async function serverStorage(): Promise<{
  env: Record<string, string>;
  url?: string;
  drop(): Promise<void>;
}> {
  const base = process.env.TEST_DATABASE_URL;
  const template = inject("postgresTemplate");
  if (base && template) {
    const name = `vexil_live_${randomBytes(6).toString("hex")}`;
    const admin = openPostgres(base);
    await admin.prisma.$executeRawUnsafe(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    const url = databaseUrl(base, name);
    return {
      env: { DATABASE_URL: url },
      url,
      async drop() {
        await admin.prisma.$executeRawUnsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.close();
      },
    };
  }
  const dir = await mkdtemp(join(tmpdir(), "vexil-live-"));
  return { env: { VEXIL_DATA_DIR: dir }, drop: () => rm(dir, { recursive: true, force: true }) };
}

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  output: string[];
  kill(signal: NodeJS.Signals): Promise<void>;
};

/** Runs `src/server.ts` as `npm start` does, on a free port; resolves once it listens. */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server.ts"], {
    cwd: ROOT,
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream as NodeJS.ReadableStream }).on("line", (line) => {
        output.push(line);
        const listening = /"msg":"Vexil listening".*?"url":"([^"]+)"/.exec(line);
        if (listening?.[1]) resolve(listening[1]);
      });
    }
    child.once("exit", (code) => reject(new Error(`server exited with ${code}:\n${output.join("\n")}`)));
  });
  return {
    url,
    child,
    output,
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill(signal);
      await exited;
    },
  };
}
