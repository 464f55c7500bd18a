// CPU time of processes, from Linux's /proc (the benchmarks run on Linux): a server's own CPU
// per request, and the database's, measured around a scenario.
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat after the command (the 3rd field is the first), or null. */
function statFields(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  } catch {
    return null;
  }
}

const ticksToMs = (...ticks: (string | undefined)[]) =>
  (ticks.reduce((sum, t) => sum + Number(t ?? 0), 0) * 1000) / TICKS_PER_SECOND;

/** CPU time the process has used so far (user + system, in ms), or 0 when it is gone. */
export function cpuMsOf(pid: number): number {
  const fields = statFields(pid);
  return fields ? ticksToMs(fields[11], fields[12]) : 0;
}

/**
 * CPU time used so far by every PostgreSQL process of the machine (backends and background
 * workers), in ms: around a scenario, the database's share of it (with whatever else the
 * cluster served meanwhile, so measure on a quiet machine). A backend that ended meanwhile (a
 * client closed its connection) is counted in its parent's time of ended children: without
 * it the total fell when one ended, and a scenario's share could come out negative.
 */
export function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || comm(Number(entry)) !== "postgres") continue;
    const fields = statFields(Number(entry));
    if (!fields) continue;
    total += ticksToMs(fields[11], fields[12]);
    // The postmaster (its parent is not PostgreSQL): its reaped backends' user and system time.
    if (comm(Number(fields[1])) !== "postgres") total += ticksToMs(fields[13], fields[14]);
  }
  return total;
}

/** The process's command name, or "" when it is gone. */
function comm(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "";
  }
}
