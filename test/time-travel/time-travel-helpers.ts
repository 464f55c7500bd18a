/** The fields a live `Feature` and a `PastFeature` share, as one selection. */
export const FLAG_FIELDS = `name project type description stale impressionData archived
  environments { name enabled
    variants { name weight weightType stickiness payload { type value } overrides { contextName values } }
    strategies { id: databaseId name title disabled sortOrder segments parameters
      constraints { contextName operator caseInsensitive inverted values value }
      variants { name weight weightType stickiness payload { type value } } } }
  tags { type value }
  dependencies { feature enabled variants }`;

type Flag = {
  environments: { name: string; strategies: { id: string; sortOrder: number }[] }[];
} & Record<string, unknown>;

/**
 * The flag with its lists in one order: environments by name (a live read orders them by the
 * environment's sortOrder), strategies by sortOrder then id (ties of sortOrder and creation time
 * have no defined order).
 */
export function normalized(flag: unknown): unknown {
  if (!flag) return flag;
  const f = flag as Flag;
  return {
    ...f,
    environments: [...f.environments]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((e) => ({
        ...e,
        strategies: [...e.strategies].sort((a, b) => a.sortOrder - b.sortOrder || a.id.localeCompare(b.id)),
      })),
  };
}

/**
 * Returns once the clock has passed `instant` (at most a millisecond of spinning): events carry
 * millisecond timestamps, so the next change is then strictly after an instant already read.
 */
export async function nextMillisecond(instant: Date): Promise<Date> {
  while (Date.now() <= instant.getTime()) await Promise.resolve();
  return instant;
}
