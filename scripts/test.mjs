// `npm test`: the suite in passes, each a vitest run of its own (extra arguments go to every pass).
// 1-3. The API tests, a third of the files each (`--shard`): files share their worker's module
//    graph (vitest.config.ts, `isolate: false`), and a worker also keeps what the embedded
//    databases of its files leave behind; over all ~100 files a worker grew past 10 GB and was
//    killed by the kernel. A third of the files per pass keeps a worker in bounds.
// 4. The login-throttling file (it replaces a module with vi.mock) and the browser tests
//    (test/ui: a server, a database and Chromium each), every file in a process of its own.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

const extra = process.argv.slice(2);
const apiTests = ["--exclude", "test/access/login-limits.test.ts", "--exclude", "test/ui/**"];
const SHARDS = 3;
const passes = [
  ...Array.from({ length: SHARDS }, (_, i) => [...apiTests, `--shard=${i + 1}/${SHARDS}`]),
  ["--isolate", "test/access/login-limits.test.ts", "test/ui"],
];

/** CPU seconds (user + system) of this process's finished children, from /proc (Linux); else null. */
function childrenCpu() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

const figures = [];
for (const [i, args] of passes.entries()) {
  const cpu = childrenCpu();
  const wall = performance.now();
  const run = spawnSync("npx", ["vitest", "run", ...args, ...extra], { stdio: "inherit" });
  if (cpu !== null) {
    figures.push(
      `pass ${i + 1}: ${(childrenCpu() - cpu).toFixed(0)} s CPU, ${((performance.now() - wall) / 1000).toFixed(0)} s`,
    );
  }
  if (run.status !== 0) process.exit(run.status ?? 1);
}
if (figures.length > 0) console.log(`== ${figures.join("; ")} ==`);
