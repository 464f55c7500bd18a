import type { AppDeps } from "../../context.ts";
import { type ImpactRow, mergeRow, rowKey } from "./impact-metrics.logic.ts";
import { storeImpactRows } from "./impact-metrics.write.ts";

/**
 * The app's impact-metrics buffer (D-35): rows of a minute are summed in memory and written
 * every `flushMs` in one statement (`flushMs` 0: before the report is answered). A node takes
 * in at most `maxImpactSeries` distinct series (metric x environment x application x labels) a
 * minute; samples of further series are dropped here, so made-up label values cost neither
 * memory nor database work. A failed write keeps its rows for the next one (a second failure
 * drops them, logged).
 */
export type ImpactMetricsBuffer = {
  add(rows: ImpactRow[]): Promise<void>;
  flush(): Promise<void>;
  close(): Promise<void>;
};

const WARN_EVERY_MS = 60_000;

export function createImpactMetricsBuffer(
  deps: Pick<AppDeps, "config" | "db" | "logger">,
): ImpactMetricsBuffer {
  const { flushMs, maxImpactSeries } = deps.config.metrics;
  let pending = new Map<string, ImpactRow>();
  /** Series admitted in the current minute, by key without the minute. */
  let seriesMinute = 0;
  let series = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();
  let failedOnce = false;
  let warnedAt = 0;

  function admitted(row: ImpactRow): boolean {
    const minute = row.minute.getTime();
    if (minute !== seriesMinute) {
      seriesMinute = minute;
      series = new Set();
    }
    const key = rowKey({ ...row, minute: new Date(0) });
    if (series.has(key)) return true;
    if (series.size >= maxImpactSeries) {
      if (Date.now() - warnedAt > WARN_EVERY_MS) {
        warnedAt = Date.now();
        deps.logger.warn("impact metrics of new series dropped: the cap is reached", {
          maxImpactSeries: String(maxImpactSeries),
        });
      }
      return false;
    }
    series.add(key);
    return true;
  }

  async function writeOnce(): Promise<void> {
    const rows = [...pending.values()];
    pending = new Map();
    if (rows.length === 0) return;
    try {
      await storeImpactRows(deps.db, rows);
      failedOnce = false;
    } catch (error) {
      if (failedOnce) {
        deps.logger.error("impact metrics dropped after failed writes", { error: String(error) });
        failedOnce = false;
        return;
      }
      failedOnce = true;
      deps.logger.warn("impact metrics write failed; kept for the next one", { error: String(error) });
      for (const row of rows) keep(row);
      arm();
    }
  }

  function flush(): Promise<void> {
    writing = writing.then(writeOnce);
    return writing;
  }

  function arm() {
    if (timer || flushMs === 0) return;
    timer = setTimeout(() => {
      timer = null;
      flush().catch(() => {});
    }, flushMs);
    timer.unref();
  }

  function keep(row: ImpactRow) {
    const key = rowKey(row);
    const existing = pending.get(key);
    if (existing) mergeRow(existing, row);
    else pending.set(key, { ...row, buckets: row.buckets && { ...row.buckets } });
  }

  return {
    add(rows) {
      const kept = rows.filter(admitted);
      for (const row of kept) keep(row);
      if (kept.length === 0) return Promise.resolve();
      if (flushMs === 0) return flush();
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
