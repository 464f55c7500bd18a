import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import {
  EVENT_CATALOGUE,
  type EventData,
  type EventPreData,
  type EventType,
  isEventType,
} from "./catalogue.ts";

/** A payload as the Event row keeps it: none is null. */
export type StoredPayload<V> = Exclude<V, undefined> | null;

/** A stored event's type and payloads, as its catalogue entry describes them. */
export type TypedPayloads = {
  [T in EventType]: { type: T; data: StoredPayload<EventData<T>>; preData: StoredPayload<EventPreData<T>> };
}[EventType];

type StoredEventPayloads = { type: string; data: unknown; preData: unknown };
const FIELDS = ["data", "preData"] as const;

/**
 * A stored event's payloads read through its catalogue entry; null for a type the catalogue
 * does not know or a payload its schema refuses.
 */
export function typedPayloads(event: StoredEventPayloads): TypedPayloads | null {
  if (!isEventType(event.type)) return null;
  const entry = EVENT_CATALOGUE[event.type];
  const data = storedValue(entry.data, event.data);
  const preData = storedValue(entry.preData, event.preData);
  if (!data.success || !preData.success) return null;
  // Each value passed its type's schema: the pair is that type's member of the union.
  return { type: event.type, data: data.data ?? null, preData: preData.data ?? null } as TypedPayloads;
}

/**
 * Where a stored event's payloads differ from its catalogue entry: a value its schema refuses,
 * or a field it does not describe. Empty when they match (REST's response schema of events
 * checks every answer with it in tests).
 */
export function payloadProblems(event: StoredEventPayloads): { path: string; message: string }[] {
  if (!isEventType(event.type)) return [{ path: "type", message: `"${event.type}" is not in the catalogue` }];
  const entry = EVENT_CATALOGUE[event.type];
  return FIELDS.flatMap((field) => {
    const read = storedValue(entry[field], event[field]);
    if (!read.success) return [{ path: field, message: `does not match the schema of ${event.type}` }];
    return undescribed(event[field] ?? undefined, read.data ?? undefined).map((path) => ({
      path: `${field}${path}`,
      message: `is not in the schema of ${event.type}`,
    }));
  });
}

/** A stored payload parsed by `schema`: the column's null is no payload, or a null one. */
function storedValue(schema: z.ZodType, value: unknown) {
  const parsed = schema.safeParse(value ?? undefined);
  return parsed.success || value !== null ? parsed : schema.safeParse(null);
}

/** The paths of `value` its parsed form dropped (fields the schema does not describe). */
function undescribed(value: unknown, parsed: unknown, path = ""): string[] {
  if (isDeepStrictEqual(value, parsed)) return [];
  if (Array.isArray(value) && Array.isArray(parsed)) {
    return value.flatMap((item, i) => undescribed(item, parsed[i], `${path}.${i}`));
  }
  if (isObject(value) && isObject(parsed)) {
    return Object.keys(value).flatMap((key) =>
      key in parsed ? undescribed(value[key], parsed[key], `${path}.${key}`) : [`${path}.${key}`],
    );
  }
  return [path || "."];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
