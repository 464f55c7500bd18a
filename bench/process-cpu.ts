// CPU time of processes, from Linux's /proc (the benchmarks run on Linux): a server's own CPU
// per request, and the database's, measured around a scenario.
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100;

/** CPU time the process has used so far (user + system, in ms), or 0 when it is gone. */
export function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * CPU time used so far by every PostgreSQL process of the machine (backends and background
 * workers), in ms: around a scenario, the database's share of it (with whatever else the
 * cluster served meanwhile, so measure on a quiet machine).
 */
export function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "postgres") total += cpuMsOf(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}
