import type { Db } from "../../db/database.ts";
import { ValidationError } from "../../shared/errors.ts";
import {
  differences,
  type FieldDifference,
  type FlagState,
  fieldsChangedBy,
  inEnvironment,
} from "./flag-state.ts";
import { type FlagAt, flagsAt } from "./history.read.ts";

/** The longest range a diff covers (docs/decisions.md, time travel). */
export const MAX_DIFF_DAYS = 31;
/** Events listed per changed field, the most recent first (the count says how many there were). */
export const EVENTS_PER_FIELD = 20;

export type ChangeEvent = { id: bigint; type: string; createdBy: string; createdAt: Date };
export type FieldChange = FieldDifference & { events: ChangeEvent[]; eventCount: number };
export type FlagChanges = {
  name: string;
  /** Whether both ends are within the flag's exact history. */
  exact: boolean;
  fields: FieldChange[];
};

/** Refuses a range that is backwards or longer than MAX_DIFF_DAYS. */
export function checkRange(from: Date, to: Date) {
  if (to < from) {
    throw new ValidationError("to: must not be before from", [{ path: "to", message: "before from" }]);
  }
  if (to.getTime() - from.getTime() > MAX_DIFF_DAYS * 24 * 3600 * 1000) {
    throw new ValidationError(`to: a diff covers at most ${MAX_DIFF_DAYS} days`, [
      { path: "to", message: `more than ${MAX_DIFF_DAYS} days after from` },
    ]);
  }
}

/**
 * What changed for each of `names` between `from` and `to` (both instants inclusive of the
 * events at them, as in `flagsAt`): the fields that differ, each with the events in
 * (`from`, `to`] that can have changed it. With `environment`, only that environment's state
 * and events count. Flags without any difference are left out.
 */
export async function changesBetween(
  db: Db,
  names: string[],
  range: { from: Date; to: Date },
  environment: string | null,
): Promise<FlagChanges[]> {
  checkRange(range.from, range.to);
  const [before, after] = await Promise.all([flagsAt(db, names, range.from), flagsAt(db, names, range.to)]);
  const beforeByName = new Map(before.map((f) => [f.name, f]));
  const changed: { name: string; exact: boolean; diffs: FieldDifference[] }[] = [];
  for (const end of after) {
    const start = beforeByName.get(end.name);
    const diffs = differences(
      slice(start, environment),
      slice(end, environment),
      environment ? [environment] : undefined,
    );
    if (diffs.length > 0) changed.push({ name: end.name, exact: Boolean(start?.exact && end.exact), diffs });
  }
  const groups = await eventGroups(
    db,
    changed.map((c) => c.name),
    range,
    environment,
  );
  const events = await eventsById(
    db,
    [...groups.values()].flat().flatMap((g) => g.ids),
  );
  return changed.map((c) => ({
    name: c.name,
    exact: c.exact,
    fields: c.diffs.map((d) => attribute(d, groups.get(c.name) ?? [], events)),
  }));
}

function slice(flag: FlagAt | undefined, environment: string | null): FlagState | null {
  if (!flag?.state) return null;
  return environment ? inEnvironment(flag.state, environment) : flag.state;
}

type EventGroup = { type: string; environment: string | null; count: number; ids: bigint[] };

/** The flags' events in the range, grouped by type and environment (counted in the database). */
async function eventGroups(
  db: Db,
  names: string[],
  range: { from: Date; to: Date },
  environment: string | null,
): Promise<Map<string, EventGroup[]>> {
  if (names.length === 0) return new Map();
  const rows = await db.$queryRaw<(EventGroup & { name: string })[]>`
    SELECT "featureName" AS name, "eventType" AS type, environment, count(*)::int AS count,
           (array_agg("eventId" ORDER BY "createdAt" DESC, id DESC))[1:${EVENTS_PER_FIELD}] AS ids
      FROM "FeatureStateVersion"
     WHERE "featureName" = ANY (${names}::text[]) AND NOT baseline AND "eventId" IS NOT NULL
       AND "createdAt" > ${range.from}::timestamp(3) AND "createdAt" <= ${range.to}::timestamp(3)
       AND (${environment}::text IS NULL OR environment IS NULL OR environment = ${environment}::text)
     GROUP BY 1, 2, 3`;
  const byName = new Map<string, EventGroup[]>();
  for (const row of rows) byName.set(row.name, [...(byName.get(row.name) ?? []), row]);
  return byName;
}

async function eventsById(db: Db, ids: bigint[]): Promise<Map<bigint, ChangeEvent>> {
  if (ids.length === 0) return new Map();
  const rows = await db.event.findMany({
    where: { id: { in: [...new Set(ids)] } },
    select: { id: true, type: true, createdBy: true, createdAt: true },
  });
  return new Map(rows.map((r) => [r.id, r]));
}

/** The difference with the events of its flag that can have changed that field there. */
function attribute(d: FieldDifference, groups: EventGroup[], events: Map<bigint, ChangeEvent>): FieldChange {
  const relevant = groups.filter(
    (g) =>
      fieldsChangedBy(g.type).includes(d.field) &&
      (d.environment === null || g.environment === null || g.environment === d.environment),
  );
  const listed = relevant
    .flatMap((g) => g.ids)
    .sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))
    .slice(0, EVENTS_PER_FIELD)
    .map((id) => events.get(id))
    .filter((e): e is ChangeEvent => e !== undefined);
  return { ...d, events: listed, eventCount: relevant.reduce((n, g) => n + g.count, 0) };
}
