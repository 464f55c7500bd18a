import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataDirInUseError, lockDataDir } from "../../src/db/data-dir-lock.ts";

/** The embedded database's folder is one process's at a time (the server process test shows the start refused). */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "vexil-lock-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const lockFile = () => join(dir, "vexil.lock");
const holdBy = (pid: number) =>
  writeFile(lockFile(), JSON.stringify({ pid, host: hostname(), startedAt: "2026-11-28T00:00:00.000Z" }));

describe("the data folder's lock", () => {
  it("is refused while another live process holds it, and taken over once that process is gone", async () => {
    const other = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    try {
      await holdBy(other.pid as number);
      const refused = await lockDataDir(dir).catch((e) => e);
      expect(refused).toBeInstanceOf(DataDirInUseError);
      expect(refused.message).toContain(`${dir} is in use by process ${other.pid}`);
    } finally {
      other.kill("SIGKILL");
      await once(other, "exit");
    }
    const release = await lockDataDir(dir);
    expect(JSON.parse(await readFile(lockFile(), "utf8")).pid).toBe(process.pid);
    await release();
    await expect(readFile(lockFile())).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("a lock file another machine wrote (a restored backup) does not block", async () => {
    await writeFile(lockFile(), JSON.stringify({ pid: process.ppid, host: "another-host", startedAt: "x" }));
    const release = await lockDataDir(dir);
    await release();
  });
});
