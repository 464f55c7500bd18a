import type { Prisma } from "../generated/prisma/client.ts";

/**
 * Something a module does in the transaction of every event, as part of the statement that
 * inserts it: a data-modifying statement joined to the insert as a common table expression, so
 * an event costs one round trip whatever modules register. It reads the new row from the relation
 * `event` (the Event table's columns) and sees every earlier change of its transaction. It
 * answers one row per row it wrote (RETURNING), so `recordEvent` can tell whether it wrote any.
 */
export type EventEffect = {
  /**
   * `type` is the event's: an effect may leave out what events of that type never need, so the
   * planner never has to cost a branch that cannot run (it plans the statement generically).
   */
  statement: (at: { now: Date; type: string }) => Prisma.Sql;
};

/**
 * What modules add to the recording of an event (record.ts), registered once when the app's
 * services are built (src/event-hooks.ts) and passed to every write with them: src/events knows
 * no module's tables.
 */
export type EventHooks = {
  /**
   * The tags an event about flag `featureName` keeps when its writer gives none: the flag's
   * current tags, as a jsonb array of `{type, value}` (empty without a flag).
   */
  flagTags: (featureName: string | null) => Prisma.Sql;
  /** Run in the event's statement, in this order. */
  effects: readonly EventEffect[];
};
