import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { isStale } from "../../scripts/build-state.mjs";
import { TEST_PASSWORD_HASH_COST } from "./admin.ts";

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  /** Every line the process wrote (stdout and stderr). */
  output: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

const ROOT = new URL("../../", import.meta.url).pathname;

let built = false;

/**
 * Brings the build (dist/, ui/dist/) up to date, once per process, as npm's prestart does; node
 * starts with the build only when something is stale. The tests' global setup calls it before the
 * workers start, so their own calls find nothing to do.
 */
export function buildIfStale(): void {
  if (built) return;
  built = !isStale();
  if (built) return;
  const build = spawnSync(process.execPath, ["scripts/build.mjs", "--if-stale"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (build.status !== 0) throw new Error("the build failed (node scripts/build.mjs)");
  built = true;
}

let startCommand: { env: Record<string, string>; args: string[] } | undefined;

/**
 * What `npm start` runs, read once from package.json: the environment its script sets (the
 * allocator's settings) and the node arguments. A server started with tsx instead would spend
 * seconds of CPU transforming TypeScript at each start.
 */
function npmStartCommand() {
  buildIfStale();
  if (!startCommand) {
    const { scripts } = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as {
      scripts: { start: string };
    };
    const words = scripts.start.split(/\s+/);
    const exec = words.indexOf("exec");
    const env = Object.fromEntries(words.slice(0, exec).map((w) => w.split("=") as [string, string]));
    startCommand = { env, args: words.slice(exec + 2) };
  }
  return startCommand;
}

/**
 * The node arguments of a server process: `npm start`'s, and under vitest `--liftoff-only` first.
 * A server compiles its WebAssembly (PGlite's PostgreSQL, Prisma's query compiler) with V8's
 * baseline compiler, then again with the optimizing one on background threads: half the CPU of
 * a start (~2 of ~4.5 s), for speed a test's few requests never use. The code runs the same.
 * Benchmarks (no VITEST) run the server exactly as `npm start` does.
 */
function serverArgs(): string[] {
  const { args } = npmStartCommand();
  return process.env.VITEST ? ["--liftoff-only", ...args] : args;
}

/** The environment of a server process: the start script's, on a free local port, then `env`. */
function serverEnv(env: Record<string, string>) {
  return {
    ...process.env,
    ...npmStartCommand().env,
    HOST: "127.0.0.1",
    PORT: "0",
    LOG_LEVEL: "info",
    VEXIL_PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST,
    ...env,
  };
}

/**
 * Starts the server as `npm start` runs it (`dist/server.js` with the script's environment,
 * rebuilt first when stale; with `npm: true`, `npm start` itself: the child is then npm), on a
 * free port, and resolves when it logs that it listens. Rejects with its output if it exits
 * first.
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { npm?: boolean; root?: string } = {},
): Promise<ServerProcess> {
  const [command, args] = options.npm ? ["npm", ["start", "--silent"]] : [process.execPath, serverArgs()];
  const child = spawn(command, args, {
    // `root`: another checkout's build (benches compare versions), as it stands.
    cwd: options.root ?? ROOT,
    env: serverEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream! }).on("line", (line) => {
        output.push(line);
        const url = listeningUrl(line);
        if (url) resolve(url);
      });
    }
    child.once("exit", (code) => reject(new Error(`server exited with ${code}:\n${output.join("\n")}`)));
  });
  return {
    url,
    child,
    output,
    async stop(signal = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, "exit");
      child.kill(signal);
      const [code] = await exited;
      return code as number | null;
    },
  };
}

/**
 * Runs the server (as `startServerProcess`) with `env` until it exits by itself (a start that
 * must fail); resolves with its exit code and every line it wrote.
 */
export async function runServerToExit(
  env: Record<string, string>,
  /** Called once the process is spawned (to signal it, say). */
  started: (child: ChildProcess) => Promise<void> | void = () => {},
): Promise<{ code: number | null; lines: string[] }> {
  const child = spawn(process.execPath, serverArgs(), {
    cwd: ROOT,
    env: serverEnv({ DATABASE_URL: "", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream! }).on("line", (line) => lines.push(line));
  }
  const closed = once(child, "close");
  await started(child);
  const [code] = await closed;
  return { code: code as number | null, lines };
}

/** The URL of a "Vexil listening" log line (a JSON object; field order is the logger's). */
export function listeningUrl(line: string): string | null {
  if (!line.includes("Vexil listening")) return null;
  try {
    const entry = JSON.parse(line) as { msg?: string; url?: string };
    return entry.msg === "Vexil listening" && entry.url ? entry.url : null;
  } catch {
    return null;
  }
}
