// VEXIL_CPU_LOG=<file> (measuring the suite): appends one line per test file: its CPU in the
// worker (user+system), the CPU of the worker's children that ended meanwhile, and wall time.
import { appendFileSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, expect } from "vitest";

const out = process.env.VEXIL_CPU_LOG;
function children(): number {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // fields[0] is state (field 3); cutime = field 16, cstime = field 17
  return (Number(fields[13]) + Number(fields[14])) / 100;
}
if (out) {
  let cpu: NodeJS.CpuUsage;
  let child = 0;
  let wall = 0;
  let file = "";
  beforeAll(() => {
    file = expect.getState().testPath ?? "?";
    cpu = process.cpuUsage();
    child = children();
    wall = performance.now();
  });
  afterAll(() => {
    const d = process.cpuUsage(cpu);
    const self = (d.user + d.system) / 1e6;
    const up = process.uptime();
    appendFileSync(
      out,
      `${file.replace(/.*\/test\//, "test/")}\t${self.toFixed(2)}\t${(children() - child).toFixed(2)}\t${((performance.now() - wall) / 1000).toFixed(2)}\t${process.pid}\t${up.toFixed(1)}\t${(process.memoryUsage().rss / 2 ** 20).toFixed(0)}\n`,
    );
  });
}
