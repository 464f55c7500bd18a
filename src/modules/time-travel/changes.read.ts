import type { Db } from "../../db/database.ts";
import { ValidationError } from "../../shared/errors.ts";
import { sqlOf } from "../../shared/sql.ts";
import { type DiffField, differences, eventTypesChanging, type FieldDifference } from "./flag-state.logic.ts";
import { FLAGS_PER_STATEMENT, flagPairsAt, inSlices, tagDeletions } from "./history.read.ts";

/** The longest range a diff covers (docs/decisions.md D-27). */
export const MAX_DIFF_DAYS = 31;
/** Events listed per changed field, the most recent first. */
export const EVENTS_PER_FIELD = 10;

export type ChangeEvent = { id: bigint; type: string; createdBy: string; createdAt: Date };
export type FieldChange = FieldDifference & { events: ChangeEvent[]; moreEvents: boolean };
export type FlagChanges = {
  name: string;
  /** Whether both ends are within the flag's exact history. */
  exact: boolean;
  fields: FieldChange[];
};
type Range = { from: Date; to: Date };

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
 * What changed for each of `names` between `from` and `to` (each instant holding the events at
 * it, as in `flagsAt`): the fields that differ, each with the events in (`from`, `to`] that can
 * have changed it. With `environment`, only that environment's state and events count. Flags
 * without any difference are left out.
 */
export async function changesBetween(
  db: Db,
  names: string[],
  range: Range,
  environment: string | null,
): Promise<FlagChanges[]> {
  checkRange(range.from, range.to);
  // A tag deletion changes flags without a version of theirs: then every flag is compared.
  const untagged = (await tagDeletions(db, range.from, range.to)).length > 0;
  // Slice by slice, a few at once: one slice's states are compared while others are read.
  return inSlices(names, FLAGS_PER_STATEMENT, (slice) => changesOf(db, slice, range, environment, untagged));
}

async function changesOf(
  db: Db,
  names: string[],
  range: Range,
  environment: string | null,
  untagged: boolean,
): Promise<FlagChanges[]> {
  const changed: { name: string; exact: boolean; diffs: FieldDifference[] }[] = [];
  for (const [start, end] of await flagPairsAt(db, names, range, environment, untagged)) {
    const diffs = differences(start.state, end.state, environment ? [environment] : undefined);
    if (diffs.length > 0) changed.push({ name: end.name, exact: start.exact && end.exact, diffs });
  }
  const wanted = changed.flatMap((c) => c.diffs.map((d) => ({ name: c.name, ...d })));
  const events = await eventsOfFields(db, wanted, range);
  let i = 0;
  return changed.map((c) => ({
    name: c.name,
    exact: c.exact,
    fields: c.diffs.map((d) => {
      const found = events.get(i++) ?? [];
      return { ...d, events: found.slice(0, EVENTS_PER_FIELD), moreEvents: found.length > EVENTS_PER_FIELD };
    }),
  }));
}

/**
 * For each wanted field (by its index in `wanted`), its flag's events in the range whose type
 * can change it (in its environment, or flag-wide), most recent first: at most one more than
 * listed, to tell whether there were more. One statement for all of them, each field's events
 * as one JSON array (a day's diff lists ~55,000 events: as rows,
 * the driver's decoding of their bigints and timestamps cost more than the lookups;
 * docs/decisions.md D-27).
 */
async function eventsOfFields(
  db: Db,
  wanted: { name: string; field: DiffField; environment: string | null }[],
  range: Range,
): Promise<Map<number, ChangeEvent[]>> {
  if (wanted.length === 0) return new Map();
  // Each field's event types once (a few fields), each wanted field by its index among them.
  const fields = [...new Set(wanted.map((w) => w.field))];
  const rows = await sqlOf(db).query<{ i: number; events: string }>`
    SELECT (w.i - 1)::int AS i, e.events
      FROM unnest(${wanted.map((w) => w.name)}::text[], ${wanted.map((w) => w.environment)}::text[],
                  ${wanted.map((w) => fields.indexOf(w.field) + 1)}::int[])
             WITH ORDINALITY AS w(name, environment, field, i)
      JOIN unnest(${fields.map((f) => eventTypesChanging(f).join(","))}::text[]) WITH ORDINALITY AS f(types, n)
        ON f.n = w.field
      CROSS JOIN LATERAL (
        SELECT json_agg(json_build_array(v."eventId"::text, v."eventType", v."createdBy",
                                         to_char(v."createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
                        ORDER BY v."createdAt" DESC, v.id DESC)::text AS events
          FROM (SELECT v."eventId", v."eventType", v."createdBy", v."createdAt", v.id FROM "FeatureStateVersion" v
                 WHERE v."featureName" = w.name AND NOT v.baseline AND v."eventId" IS NOT NULL
                   AND v."createdAt" > ${range.from}::timestamp(3) AND v."createdAt" <= ${range.to}::timestamp(3)
                   AND v."eventType" = ANY (string_to_array(f.types, ','))
                   AND (w.environment IS NULL OR v.environment IS NULL OR v.environment = w.environment)
                 ORDER BY v."createdAt" DESC, v.id DESC LIMIT ${EVENTS_PER_FIELD + 1}) v) e
     WHERE e.events IS NOT NULL`;
  const byField = new Map<number, ChangeEvent[]>();
  for (const { i, events } of rows) {
    const list = JSON.parse(events) as [string, string, string, string][];
    byField.set(
      i,
      list.map(([id, type, createdBy, createdAt]) => ({
        id: BigInt(id),
        type,
        createdBy,
        createdAt: new Date(createdAt),
      })),
    );
  }
  return byField;
}
