/**
 * Reads of a table outside its owner module (src/db/table-owners.ts) that have not yet moved
 * into the owner's .read.ts (issue 38, "owners serve their data"): per file, per table, how many.
 * test/foundation/table-ownership.test.ts fails when the code holds more or fewer than listed,
 * so this list only shrinks. A read that must stay where it is goes to EXTRA_READERS, with why.
 */
export const READS_TO_MOVE: Record<string, Record<string, number>> = {
  "src/modules/client-metrics/application-overview.read.ts": { Feature: 2, StrategyDefinition: 1 },
  "src/modules/client-metrics/client-metrics.read.ts": { Feature: 1 },
  "src/modules/client-metrics/metrics-room.cache.ts": { Feature: 1 },
  "src/modules/client-metrics/project-applications.read.ts": { Feature: 1 },
  "src/modules/client-metrics/unknown-flags.read.ts": { Event: 1, Feature: 1 },
  "src/modules/client-metrics/unknown-flags.write.ts": { Feature: 1 },
  "src/modules/instance-stats/instance-stats.read.ts": {
    ClientApplication: 3,
    ClientMetricsHourly: 1,
    ClientVariantMetricsHourly: 1,
  },
  "src/modules/personal-dashboard/project-details.read.ts": { ClientMetricsHourly: 1 },
};
