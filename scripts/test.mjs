// `npm test`: the suite in passes, each a vitest run of its own (extra arguments go to every pass).
// 1-3. The API tests, a third of the files each (`--shard`): files share their worker's module
//    graph (vitest.config.ts, `isolate: false`), and a worker also keeps what the embedded
//    databases of its files leave behind; over all ~100 files a worker grew past 10 GB and was
//    killed by the kernel. A third of the files per pass keeps a worker in bounds.
// 4. The login-throttling file (it replaces a module with vi.mock) and the browser tests
//    (test/ui: a server, a database and Chromium each), every file in a process of its own.
import { spawnSync } from "node:child_process";

const extra = process.argv.slice(2);
const apiTests = ["--exclude", "test/access/login-limits.test.ts", "--exclude", "test/ui/**"];
const SHARDS = 3;
const passes = [
  ...Array.from({ length: SHARDS }, (_, i) => [...apiTests, `--shard=${i + 1}/${SHARDS}`]),
  ["--isolate", "test/access/login-limits.test.ts", "test/ui"],
];

for (const args of passes) {
  const run = spawnSync("npx", ["vitest", "run", ...args, ...extra], { stdio: "inherit" });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
