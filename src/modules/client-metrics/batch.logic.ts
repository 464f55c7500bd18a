import { hourOf, saturated } from "../features/evaluation-metrics.logic.ts";

/** Which kind of SDK reported: server-side (client token) or browser/mobile (frontend token). */
export type SdkType = "backend" | "frontend";

/** One flag's counts from one application in one environment and hour, summed over reports. */
export type AppFlagCounts = {
  featureName: string;
  environment: string;
  appName: string;
  /** Start of the hour the counts belong to. */
  at: Date;
  /** Latest arrival, for `lastSeenAt`. */
  seenAt: Date;
  /** The reporting token's projects (`*` = all); flags outside them are ignored. */
  projects: readonly string[];
  yes: number;
  no: number;
  variants: Map<string, number>;
};

/** What a register or metrics call says about one running SDK instance. */
export type InstanceSeen = {
  appName: string;
  instanceId: string;
  environment: string;
  sdkType: SdkType;
  seenAt: Date;
  sdkVersion?: string | null;
  platformName?: string | null;
  platformVersion?: string | null;
  strategies?: string[] | null;
  startedAt?: Date | null;
  interval?: number | null;
};

/** One SDK report, already validated and scoped by the caller's token. */
export type FlagCounts = { yes: number; no: number; variants?: Record<string, number> | null };

/** A report as received; its counts per flag are `Counts` (checked, or not yet: `unknown`). */
export type Report<Counts = FlagCounts> = {
  instance: InstanceSeen;
  /** Counts only: the instance names the application and environment but is not recorded (Edge's bulk metrics). */
  countsOnly?: boolean;
  projects: readonly string[];
  /** Hour bucket time (the SDK bucket's start) and the counts per flag; absent for register. */
  bucket?: {
    at: Date;
    toggles: Record<string, Counts>;
  };
};

/**
 * Reports received since the last write, summed in memory: one row per (token scope, flag,
 * environment, application, hour) and one per SDK instance, however many reports came in.
 */
export class MetricsBatch {
  readonly counts = new Map<string, AppFlagCounts>();
  readonly instances = new Map<string, InstanceSeen>();
  reports = 0;

  get size() {
    return this.counts.size + this.instances.size;
  }

  add(report: Report): void {
    this.reports++;
    if (!report.countsOnly) this.addInstance(report.instance);
    const bucket = report.bucket;
    if (!bucket) return;
    const { appName, environment, seenAt } = report.instance;
    const at = hourOf(bucket.at);
    const scope = report.projects.join(",");
    for (const [featureName, flag] of Object.entries(bucket.toggles)) {
      if (flag.yes === 0 && flag.no === 0 && !flag.variants) continue;
      const key = [scope, featureName, environment, appName, at.getTime()].join("\u0000");
      let row = this.counts.get(key);
      if (!row) {
        row = {
          featureName,
          environment,
          appName,
          at,
          seenAt,
          projects: report.projects,
          yes: 0,
          no: 0,
          variants: new Map(),
        };
        this.counts.set(key, row);
      }
      row.yes = saturated(row.yes + flag.yes);
      row.no = saturated(row.no + flag.no);
      if (row.seenAt < seenAt) row.seenAt = seenAt;
      for (const [variant, n] of Object.entries(flag.variants ?? {})) {
        row.variants.set(variant, saturated((row.variants.get(variant) ?? 0) + n));
      }
    }
  }

  /** Later reports win field by field; a metrics call (no SDK details) keeps a register's. */
  private addInstance(seen: InstanceSeen): void {
    const key = [seen.appName, seen.instanceId, seen.environment].join("\u0000");
    const known = this.instances.get(key);
    if (!known) {
      this.instances.set(key, { ...seen });
      return;
    }
    for (const [field, value] of Object.entries(seen) as [keyof InstanceSeen, unknown][]) {
      if (value !== undefined && value !== null) (known as Record<string, unknown>)[field] = value;
    }
    if (known.seenAt < seen.seenAt) known.seenAt = seen.seenAt;
  }

  /**
   * Two batches holding this one's rows between them, about half each (a batch that cannot be
   * written is split until the rows at fault are alone: see storeBatchSeparating).
   */
  split(): [MetricsBatch, MetricsBatch] {
    const halves: [MetricsBatch, MetricsBatch] = [new MetricsBatch(), new MetricsBatch()];
    const rows = [...this.counts.entries()];
    const instances = [...this.instances.entries()];
    const half = Math.ceil((rows.length + instances.length) / 2);
    rows.forEach(([key, row], i) => {
      halves[i < half ? 0 : 1].counts.set(key, row);
    });
    instances.forEach(([key, seen], i) => {
      halves[rows.length + i < half ? 0 : 1].instances.set(key, seen);
    });
    for (const batch of halves) batch.reports = batch.size > 0 ? 1 : 0;
    return halves;
  }

  /** Takes another batch's rows in (a write that failed is retried with the next one). */
  merge(other: MetricsBatch): void {
    for (const [key, row] of other.counts) {
      const mine = this.counts.get(key);
      if (!mine) {
        this.counts.set(key, row);
        continue;
      }
      mine.yes = saturated(mine.yes + row.yes);
      mine.no = saturated(mine.no + row.no);
      if (mine.seenAt < row.seenAt) mine.seenAt = row.seenAt;
      for (const [variant, n] of row.variants) {
        mine.variants.set(variant, saturated((mine.variants.get(variant) ?? 0) + n));
      }
    }
    for (const seen of other.instances.values()) this.addInstance(seen);
    this.reports += other.reports;
  }
}
