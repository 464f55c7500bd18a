import { z } from "zod";

// The parts of a catalogue entry (catalogue.ts) and the helpers that write them.

type Schema = z.ZodType;
/** No payload. */
const none = z.undefined();
type None = typeof none;

export type EventEntry<D extends Schema = Schema, P extends Schema = Schema> = {
  /** Short human name of the type; null: the type itself. */
  label: string | null;
  /**
   * The summary's verb phrase and place, with `{{feature}}`, `{{project}}` and `{{environment}}`
   * (format.ts); null: "triggered **type**".
   */
  summary: string | null;
  data: D;
  preData: P;
};

/** The schemas of an entry's payloads; a field left out holds nothing. */
type Payloads = { data?: Schema; preData?: Schema };
type SchemaOf<T, K extends keyof Payloads> = T extends { [F in K]: infer S extends Schema } ? S : None;
type EntryOf<T extends Payloads> = EventEntry<SchemaOf<T, "data">, SchemaOf<T, "preData">>;

function entry<T extends Payloads = Record<never, never>>(
  label: string | null,
  summary: string | null,
  payload?: T,
): EntryOf<T> {
  // What SchemaOf says: the schema given, else `none`.
  return { label, summary, data: payload?.data ?? none, preData: payload?.preData ?? none } as EntryOf<T>;
}

/** An entry whose summary says where it happened, after its verb phrase. */
const placed =
  (place: string) =>
  <T extends Payloads = Record<never, never>>(label: string, action: string, payload?: T) =>
    entry(label, action + place, payload);

/** Events about a flag in one environment of a project. */
export const inEnvironment = placed(" for the **{{environment}}** environment in project {{project}}");
/** Events that happen in a project. */
export const inProject = placed(" in project {{project}}");
export const elsewhere = placed("");
/** Recorded with a payload, told by its type alone. */
export const untold = <T extends Payloads>(payload: T) => entry(null, null, payload);
/** An Unleash event type Vexil never records. */
export const UNRECORDED = entry(null, null);
