import { isDeepStrictEqual } from "node:util";
import { Prisma } from "../generated/prisma/client.ts";
import { sqlOf } from "../shared/sql.ts";
import type { Write } from "../shared/write.ts";
import type { EventData, EventPreData, EventType } from "./catalogue.ts";
import { eventLabel, eventSummary } from "./format.ts";
import type { EventEffect } from "./hooks.ts";
import type { TagPayload } from "./payloads.ts";
import type { StoredEvent } from "./types.ts";

/** Where an event happened; `tags` default to the flag's current tags when `featureName` is set. */
type EventPlace = {
  project?: string | null;
  environment?: string | null;
  featureName?: string | null;
  tags?: TagPayload[];
};

/** A payload field: required when the type's schema requires it, else optional. */
type PayloadField<K extends "data" | "preData", V> = undefined extends V ? { [F in K]?: V } : { [F in K]: V };

/** An event of type `T` to record: its place, and the payload its catalogue entry describes. */
export type EventInput<T extends EventType = EventType> = T extends EventType
  ? EventPlace & { type: T } & PayloadField<"data", EventData<T>> & PayloadField<"preData", EventPreData<T>>
  : never;

/**
 * The one event recorder. Writes the event in the caller's transaction (so a rollback leaves
 * no event), with what the modules registered for every event (the addon outbox, the flag's
 * history: src/events/hooks.ts) in the same statement, and queues it for publishing after
 * commit. A change whose `data` equals its `preData` changed nothing and records nothing
 * (returns null).
 */
export async function recordEvent<T extends EventType>(
  w: Write,
  input: EventInput<T>,
): Promise<StoredEvent | null> {
  const { type, data, preData } = input as EventInput;
  if (data !== undefined && preData !== undefined && isDeepStrictEqual(data, preData)) return null;
  const base = {
    type,
    createdBy: w.actor.name,
    project: input.project ?? null,
    environment: input.environment ?? null,
    featureName: input.featureName ?? null,
  };
  const event = await insertEvent(w, {
    ...base,
    createdByUserId: w.actor.userId,
    data: jsonText(data),
    preData: jsonText(preData),
    // Null: the statement takes the flag's current tags (none without a flag).
    tags: input.tags ? JSON.stringify(input.tags) : null,
    label: eventLabel(type),
    summary: eventSummary(base, w.publicUrl),
  });
  w.recorded.push(event);
  return event;
}

type EventValues = Pick<
  StoredEvent,
  "type" | "createdBy" | "createdByUserId" | "project" | "environment" | "featureName" | "label" | "summary"
> & { data: string | null; preData: string | null; tags: string | null };

/** The effects that wrote rows when each event this process recorded was inserted. */
const effectsThatWrote = new WeakMap<StoredEvent, ReadonlySet<EventEffect>>();

/**
 * Whether recording `event` (an event this process committed) made `effect` write rows: the
 * delivery worker looks for work only when the addon outbox got some, or on another node's notice.
 */
export function effectWrote(event: StoredEvent, effect: EventEffect): boolean {
  return effectsThatWrote.get(event)?.has(effect) === true;
}

/** Inserts the event, and runs the registered effects in the same statement (EventEffect). */
async function insertEvent(w: Write, v: EventValues): Promise<StoredEvent> {
  const { flagTags, effects } = w.eventHooks;
  const name = (i: number) => Prisma.raw(`effect_${i}`);
  const ctes = effects.map(
    (effect, i) => Prisma.sql`, ${name(i)} AS (${effect.statement({ now: w.now, type: v.type })})`,
  );
  const wrote = effects.map((_, i) => Prisma.sql`EXISTS (SELECT FROM ${name(i)})`);
  const [row] = await sqlOf(w.tx).query<StoredEvent & { effectsWrote: boolean[] }>(Prisma.sql`
    WITH event AS (
      INSERT INTO "Event" ("type", "createdAt", "createdBy", "createdByUserId", "project", "environment",
                           "featureName", "data", "preData", "tags", "label", "summary", "groupType", "groupId")
      VALUES (${v.type}, ${new Date()}::timestamp(3), ${v.createdBy}, ${v.createdByUserId}, ${v.project},
              ${v.environment}, ${v.featureName}, ${v.data}::jsonb, ${v.preData}::jsonb,
              COALESCE(${v.tags}::jsonb, ${flagTags(v.featureName)}),
              ${v.label}, ${v.summary}, ${w.groupType}, ${w.groupId})
      RETURNING *
    )${ctes.length > 0 ? Prisma.join(ctes, "") : Prisma.empty}
    SELECT event.*, ARRAY[${wrote.length > 0 ? Prisma.join(wrote) : Prisma.empty}]::boolean[] AS "effectsWrote"
      FROM event`);
  if (!row) throw new Error("the event insert returned no row");
  const { effectsWrote, ...event } = row;
  if (effectsWrote.some(Boolean))
    effectsThatWrote.set(event, new Set(effects.filter((_, i) => effectsWrote[i])));
  return event;
}

/** `value` as JSON text for a jsonb column; null for none. */
function jsonText(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}
