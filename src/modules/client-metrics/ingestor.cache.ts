import type { AppBase } from "../../context.ts";
import { MetricsBatch, type Report } from "./batch.logic.ts";
import { SdkWritesRateLimited } from "./sdk-write-limits.cache.ts";
import { storeBatchSeparating, UnwrittenRows } from "./store.write.ts";

/**
 * The app's SDK metrics buffer. Reports are summed in memory and written in one transaction
 * per batch (store.write.ts), at most one write at a time per node:
 * - `flushMs` > 0: a report is accepted (202) once it is in memory; the batch is written
 *   `flushMs` later, on `close()` (shutdown drains it before the database closes), or at once
 *   when the buffer holds MAX_BUFFERED_ROWS rows (then the caller waits: back-pressure). A
 *   crash of the process (not a shutdown) loses at most the last `flushMs` of reports.
 * - `flushMs` = 0: each report waits for the write of the batch that holds it (group commit:
 *   reports arriving during a write share the next one), so a 202 means stored.
 * A failed write keeps its unwritten rows for the next batch (buffered mode) or fails the
 * waiting requests (the SDKs keep their bucket and send it again). Rows the database refuses
 * for their own data are set apart and dropped alone (storeBatchSeparating).
 */
export type MetricsIngestor = {
  /** Takes a validated report; resolves when it is safe to answer 202 (see above). */
  add(report: Report): Promise<void>;
  /** Writes everything buffered so far. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
};

/** Buffered rows (flag x app x hour, plus instances) that trigger an immediate write. */
const MAX_BUFFERED_ROWS = 50_000;
/** Buffered rows beyond which reports are refused (429) while the write catches up. */
const REFUSE_AT_ROWS = 2 * MAX_BUFFERED_ROWS;
/** Failed writes of one batch before its rows are given up (logged). */
const MAX_FAILED_WRITES = 5;

type Waiter = { resolve: () => void; reject: (error: unknown) => void };

/** The app's one ingestor (each node buffers its own reports). */
export function createMetricsIngestor(deps: AppBase): MetricsIngestor {
  const flushMs = deps.config.metrics.flushMs;
  let pending = new MetricsBatch();
  let waiters: Waiter[] = [];
  let failures = 0;
  let writing: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let scheduled = false;

  async function writeOnce(): Promise<void> {
    const batch = pending;
    const batchWaiters = waiters;
    pending = new MetricsBatch();
    waiters = [];
    if (batch.reports === 0) {
      for (const w of batchWaiters) w.resolve();
      return;
    }
    try {
      await storeBatchSeparating(deps, batch);
      failures = 0;
      for (const w of batchWaiters) w.resolve();
    } catch (stopped) {
      const error = stopped instanceof UnwrittenRows ? stopped.cause : stopped;
      const unwritten = stopped instanceof UnwrittenRows ? stopped.rows : batch;
      for (const w of batchWaiters) w.reject(error);
      if (batchWaiters.length > 0) return; // the senders were told; they send again
      failures++;
      if (failures >= MAX_FAILED_WRITES) {
        deps.logger.error("SDK metrics dropped after failed writes", {
          reports: String(batch.reports),
          error: String(error),
        });
        failures = 0;
        return;
      }
      deps.logger.warn("SDK metrics write failed; kept for the next batch", { error: String(error) });
      unwritten.merge(pending); // older rows first, so newer instance details win
      pending = unwritten;
      arm();
    }
  }

  /** Writes until nothing is pending; one write at a time. */
  function flush(): Promise<void> {
    if (writing) return writing.then(() => (pending.reports > 0 ? flush() : undefined));
    writing = writeOnce().finally(() => {
      writing = null;
    });
    return writing;
  }

  function arm() {
    if (timer || flushMs === 0) return;
    timer = setTimeout(() => {
      timer = null;
      flush().catch(() => {}); // failures are handled (kept or logged) in writeOnce
    }, flushMs);
    timer.unref();
  }

  /** Group commit: the write starts after the current task, so concurrent reports share it. */
  function scheduleNow() {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      flush().catch(() => {});
    });
  }

  return {
    add(report) {
      if (pending.size >= REFUSE_AT_ROWS) {
        const busy = "SDK metrics are being written; try again in 1 second.";
        return Promise.reject(new SdkWritesRateLimited(1, busy));
      }
      pending.add(report);
      if (flushMs === 0) {
        const stored = new Promise<void>((resolve, reject) => waiters.push({ resolve, reject }));
        scheduleNow();
        return stored;
      }
      if (pending.size >= MAX_BUFFERED_ROWS) return flush();
      arm();
      return Promise.resolve();
    },
    flush,
    async close() {
      if (timer) clearTimeout(timer);
      timer = null;
      await flush();
    },
  };
}
