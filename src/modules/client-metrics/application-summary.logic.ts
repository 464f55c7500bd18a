import type { ApplicationInstance, FeatureMetricsRow, SeenFlag } from "./client-metrics.read.ts";

/** The SDK version of the most recently seen instance (null when it reported none). */
export function latestSdkVersion(instances: readonly ApplicationInstance[]): string | null {
  const latest = [...instances].sort((a, b) => (a.lastSeenAt < b.lastSeenAt ? 1 : -1))[0];
  return latest?.sdkVersion || null;
}

/** Strategies an admin declared or any instance reported, once each, sorted. */
export function allStrategies(
  declared: readonly string[],
  instances: readonly ApplicationInstance[],
): string[] {
  return [...new Set([...declared, ...instances.flatMap((i) => i.strategies)])].sort();
}

export type ProjectUsage = { project: string; environments: string[] };

/** The projects of the flags an application reported, each with the environments, sorted. */
export function usageByProject(seenFlags: readonly SeenFlag[]): ProjectUsage[] {
  const usage = new Map<string, Set<string>>();
  for (const flag of seenFlags) {
    const environments = usage.get(flag.project) ?? new Set<string>();
    for (const e of flag.environments) environments.add(e);
    usage.set(flag.project, environments);
  }
  return [...usage.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([project, environments]) => ({ project, environments: [...environments].sort() }));
}

export type EnvironmentUsage = { environment: string; hour: Date; yes: number; no: number };

/** A flag's buckets summed per environment (every application), by environment name. */
export function usageByEnvironment(buckets: readonly FeatureMetricsRow[]): EnvironmentUsage[] {
  const sums = new Map<string, EnvironmentUsage>();
  for (const b of buckets) {
    const sum = sums.get(b.environment) ?? { environment: b.environment, hour: b.hour, yes: 0, no: 0 };
    sum.yes += b.yes;
    sum.no += b.no;
    sums.set(b.environment, sum);
  }
  return [...sums.values()].sort((a, b) => (a.environment < b.environment ? -1 : 1));
}
