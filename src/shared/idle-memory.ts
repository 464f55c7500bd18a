import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Logger } from "./logger.ts";

/** What the reclaimer reads and does; the process's own by default (tests pass their own). */
export type MemoryProbe = {
  /** JavaScript heap taken from the system plus memory held by buffers, in bytes. */
  used(): number;
  /** Share of the last interval the event loop was busy, 0 to 1. */
  busy(): number;
  collect(): void;
};

const MIB = 1024 * 1024;
/** Garbage worth a full collection: below this, V8's own schedule is good enough. */
export const RECLAIM_GROWTH_BYTES = 32 * MIB;
/** An interval this quiet is idle: a full collection (tens of ms) delays nobody. */
export const IDLE_BUSY_SHARE = 0.05;
const CHECK_INTERVAL_MS = 5_000;

/**
 * Gives back the memory a burst of heavy requests left behind. V8 collects its old space only
 * when it allocates more, so after a burst (full SDK answers, exports: hundreds of MiB of
 * garbage) an idle server kept it for good. Every 5 s, when the last interval was idle and
 * memory in use grew by RECLAIM_GROWTH_BYTES since the last collection, runs a full one.
 */
export function checkIdleMemory(probe: MemoryProbe, state: { baseline: number }): boolean {
  const used = probe.used();
  if (used < state.baseline) state.baseline = used;
  if (probe.busy() > IDLE_BUSY_SHARE || used - state.baseline < RECLAIM_GROWTH_BYTES) return false;
  probe.collect();
  state.baseline = probe.used();
  return true;
}

/**
 * Checks every 5 s on the calling thread (the server's main thread, and the embedded database's
 * own: each has its own heap); returns its stop.
 */
export function startIdleMemoryReclaim(logger: Logger, probe: MemoryProbe = processProbe()) {
  // Start-up (loading the code, building the schema, the first queries) leaves garbage and a
  // young generation grown to its largest: counted as growth, the first quiet interval collects
  // it (idle RSS after start on PostgreSQL 174 -> ~150 MiB) instead of keeping it for good.
  const state = { baseline: 0 };
  const timer = setInterval(() => {
    const before = probe.used();
    if (checkIdleMemory(probe, state)) {
      logger.debug("idle: garbage collected", { freedMiB: Math.round((before - state.baseline) / MIB) });
    }
  }, CHECK_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

function processProbe(): MemoryProbe {
  let last = performance.eventLoopUtilization();
  return {
    used: () => {
      // What the heap holds from the system, not what is live in it: after a burst V8's own
      // collections bring heapUsed down while the pages (and so RSS) stay.
      const { heapTotal, external } = process.memoryUsage();
      return heapTotal + external;
    },
    busy: () => {
      const now = performance.eventLoopUtilization();
      const share = performance.eventLoopUtilization(now, last).utilization;
      last = now;
      return share;
    },
    collect: fullCollection(),
  };
}

/**
 * V8's full collection, made callable without starting Node with --expose-gc, run twice: the
 * first frees the heap's pages to V8, the second gives them back to the system. One alone left
 * the process at the size of its largest burst (a flood of SDK reports: +120 MB of RSS for good).
 */
function fullCollection(): () => void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  return () => {
    gc();
    gc();
  };
}
