import type { AppDeps } from "../../context.ts";
import type { Report } from "./batch.logic.ts";

/**
 * This node's view of which applications, SDK instances and flags exist, to hold what SDK
 * reports bring in under the caps without a database round trip per report (D-35):
 * - Known applications and instances always pass. A new application beyond
 *   VEXIL_METRICS_MAX_APPLICATIONS: the report is dropped (its counts belong to no application
 *   kept); a new instance beyond VEXIL_METRICS_MAX_INSTANCES: the report's counts are kept, the
 *   instance is not recorded.
 * - Counts for flags the view knows (active or archived) always pass. Names it does not know
 *   (unknown flags, or flags created since the view was read) pass up to
 *   VEXIL_METRICS_UNKNOWN_FLAGS_PER_MINUTE distinct names a minute; counts for further names are
 *   dropped here, so a flood of made-up names costs neither buffer memory nor database work.
 *   A flag created during such a flood may miss its first minute of counts.
 * The view is read from the database at most once a minute (or after a prune), so several
 * nodes together stay within the caps up to the room each saw free; memory holds at most the
 * caps' worth of names, plus the flags' names.
 */
export type MetricsRoom = {
  /**
   * The report as it may be buffered (the instance left out when there is no room, counts for
   * names beyond the budget left out), or null. Its counts are passed through unread, so a
   * caller may check only those admitted.
   */
  admit<Counts>(report: Report<Counts>): Promise<Report<Counts> | null>;
  /** Reads the database again on the next report (after rows were pruned). */
  forget(): void;
};

const REFRESH_MS = 60_000;
/** Reports dropped are logged at most this often. */
const WARN_EVERY_MS = 60_000;

type View = { apps: Set<string>; instances: Set<string>; flags: Set<string> };

export const instanceKey = (appName: string, instanceId: string, environment: string) =>
  `${appName}\u0000${instanceId}\u0000${environment}`;

/** The app's one view (each node keeps its own). */
export function createMetricsRoom(deps: Pick<AppDeps, "config" | "db" | "logger">): MetricsRoom {
  const { maxApplications, maxInstances, unknownFlagsPerMinute } = deps.config.metrics;
  let view: Promise<View> | null = null;
  let readAt = 0;
  let warnedAt = 0;
  /** Unknown names admitted since `unknownSince` (a minute at most). */
  let unknownAdmitted = new Set<string>();
  let unknownSince = 0;

  function current(): Promise<View> {
    if (!view || Date.now() - readAt > REFRESH_MS) {
      readAt = Date.now();
      const reading = read();
      view = reading;
      reading.catch(() => {
        if (view === reading) view = null;
      });
    }
    return view;
  }

  async function read(): Promise<View> {
    const [apps, instances, flags] = await Promise.all([
      deps.db.clientApplication.findMany({ select: { appName: true }, take: maxApplications }),
      deps.db.clientInstance.findMany({
        select: { appName: true, instanceId: true, environment: true },
        take: maxInstances,
      }),
      deps.db.feature.findMany({ select: { name: true } }),
    ]);
    return {
      apps: new Set(apps.map((a) => a.appName)),
      instances: new Set(instances.map((i) => instanceKey(i.appName, i.instanceId, i.environment))),
      flags: new Set(flags.map((f) => f.name)),
    };
  }

  /** Whether counts for a name the view does not know may pass (the per-minute budget). */
  function unknownMayPass(name: string): boolean {
    if (unknownAdmitted.has(name)) return true;
    if (unknownAdmitted.size >= unknownFlagsPerMinute) return false;
    unknownAdmitted.add(name);
    return true;
  }

  /**
   * The toggles whose counts may pass: all of them, or a copy without the dropped names. A
   * flood brings hundreds of names a report, so this is a plain loop with one clock reading.
   */
  function admitToggles<Counts>(v: View, toggles: Record<string, Counts>): Record<string, Counts> {
    if (Date.now() - unknownSince > REFRESH_MS) {
      unknownAdmitted = new Set();
      unknownSince = Date.now();
    }
    const names = Object.keys(toggles);
    const kept = names.filter((name) => v.flags.has(name) || unknownMayPass(name));
    if (kept.length === names.length) return toggles;
    dropped("unknown flag names");
    return Object.fromEntries(kept.map((name) => [name, toggles[name] as Counts]));
  }

  function dropped(what: string) {
    if (Date.now() - warnedAt < WARN_EVERY_MS) return;
    warnedAt = Date.now();
    deps.logger.warn(`SDK reports of new ${what} dropped: the cap is reached`, {
      maxApplications: String(maxApplications),
      maxInstances: String(maxInstances),
      unknownFlagsPerMinute: String(unknownFlagsPerMinute),
    });
  }

  return {
    async admit(sent) {
      const v = await current();
      const { appName, instanceId, environment } = sent.instance;
      if (!v.apps.has(appName)) {
        if (v.apps.size >= maxApplications) {
          dropped("applications");
          return null;
        }
        v.apps.add(appName);
      }
      const report = sent.bucket
        ? { ...sent, bucket: { ...sent.bucket, toggles: admitToggles(v, sent.bucket.toggles) } }
        : sent;
      if (report.countsOnly) return report;
      const key = instanceKey(appName, instanceId, environment);
      if (v.instances.has(key)) return report;
      if (v.instances.size >= maxInstances) {
        dropped("instances");
        return { ...report, countsOnly: true };
      }
      v.instances.add(key);
      return report;
    },
    forget() {
      view = null;
    },
  };
}
