import type { AppDeps } from "../../context.ts";
import type { Report } from "./batch.logic.ts";

/**
 * This node's view of which applications and SDK instances are kept, to hold their number
 * under VEXIL_METRICS_MAX_APPLICATIONS / _INSTANCES without a database round trip per report
 * (D-171). Known ones always pass. A new application beyond the cap: the report is dropped
 * (its counts belong to no application kept); a new instance beyond the cap: the report's
 * counts are kept, the instance is not recorded. The view is read from the database at most
 * once a minute (or after a prune), so several nodes together stay within the caps up to the
 * room each saw free; memory holds at most the caps' worth of names.
 */
export type MetricsRoom = {
  /** The report as it may be buffered (the instance left out when there is no room), or null. */
  admit(report: Report): Promise<Report | null>;
  /** Reads the database again on the next report (after rows were pruned). */
  forget(): void;
};

const REFRESH_MS = 60_000;
/** Reports dropped are logged at most this often. */
const WARN_EVERY_MS = 60_000;

type View = { apps: Set<string>; instances: Set<string> };

export const instanceKey = (appName: string, instanceId: string, environment: string) =>
  `${appName}\u0000${instanceId}\u0000${environment}`;

/** The app's one view (each node keeps its own). */
export function createMetricsRoom(deps: Pick<AppDeps, "config" | "db" | "logger">): MetricsRoom {
  const { maxApplications, maxInstances } = deps.config.metrics;
  let view: Promise<View> | null = null;
  let readAt = 0;
  let warnedAt = 0;

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
    const [apps, instances] = await Promise.all([
      deps.db.clientApplication.findMany({ select: { appName: true }, take: maxApplications }),
      deps.db.clientInstance.findMany({
        select: { appName: true, instanceId: true, environment: true },
        take: maxInstances,
      }),
    ]);
    return {
      apps: new Set(apps.map((a) => a.appName)),
      instances: new Set(instances.map((i) => instanceKey(i.appName, i.instanceId, i.environment))),
    };
  }

  function dropped(what: string) {
    if (Date.now() - warnedAt < WARN_EVERY_MS) return;
    warnedAt = Date.now();
    deps.logger.warn(`SDK reports of new ${what} dropped: the cap is reached`, {
      maxApplications: String(maxApplications),
      maxInstances: String(maxInstances),
    });
  }

  return {
    async admit(report) {
      const v = await current();
      const { appName, instanceId, environment } = report.instance;
      if (!v.apps.has(appName)) {
        if (v.apps.size >= maxApplications) {
          dropped("applications");
          return null;
        }
        v.apps.add(appName);
      }
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
