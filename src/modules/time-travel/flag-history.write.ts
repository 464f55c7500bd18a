import type { EventType } from "../../events/catalogue.ts";
import type { EventEffect } from "../../events/hooks.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { flagRecordJson } from "../flag-record/flag-record.read.ts";

/**
 * Events that change the state of every flag of their project (their per-environment state
 * appears or disappears) without naming a flag.
 */
const PROJECT_FLAGS_EVENTS: EventType[] = ["project-environment-added", "project-environment-removed"];

/**
 * Keeps the history time travel reads (history.read.ts): the FlagRecord of the flag the event
 * names (or, for PROJECT_FLAGS_EVENTS, of every flag of its project) right after it, null when
 * the event deleted it; stored as the flag without its environments (`state`) and its
 * environments by name. Runs in the event's statement (an effect of src/event-hooks.ts), which
 * sees every earlier change of the transaction, so the record is the one the event produced;
 * the record is built by the read model's own SQL (flag-record.read.ts), so the history and
 * every other projection of a flag cannot disagree on its shape.
 *
 * An event of another type names one flag at most, and its statement says only that: with the
 * project's flags as a possible branch, PostgreSQL's generic plan counted a project's flags for
 * every event (4,762 at 100,000 flags), hashed the whole Feature table and JIT-compiled the
 * statement, a second per toggle (issue 42).
 */
export const keepFlagHistory: EventEffect = {
  statement: ({ type }) => Prisma.sql`
    INSERT INTO "FeatureStateVersion" ("featureName", "eventId", "eventType", "environment", "projectId",
                                       "createdBy", "createdAt", "state", "environments")
    SELECT flag.name, event.id, event.type, event.environment, COALESCE(f."projectId", event.project),
           event."createdBy", event."createdAt", ${historyColumns(Prisma.sql`record.value`)}
      FROM event
      CROSS JOIN LATERAL (
        SELECT event."featureName" AS name WHERE event."featureName" IS NOT NULL
        ${
          (PROJECT_FLAGS_EVENTS as string[]).includes(type)
            ? Prisma.sql`UNION ALL
              SELECT f.name FROM "Feature" f WHERE event."featureName" IS NULL AND f."projectId" = event.project`
            : Prisma.empty
        }
      ) flag
      LEFT JOIN "Feature" f ON f.name = flag.name
      CROSS JOIN LATERAL (
        SELECT CASE WHEN f.name IS NOT NULL THEN ${flagRecordJson(Prisma.sql`f`, { as: "jsonb" })} END AS value
      ) record
    RETURNING id`,
};

/**
 * The values of the `state` and `environments` columns of a history row holding the FlagRecord
 * `record` (jsonb, null for a deleted flag): the flag without its environments, and its
 * environments by name (history.read.ts reads one environment without parsing the others).
 */
export function historyColumns(record: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`${record} - 'environments',
    CASE WHEN ${record} IS NOT NULL THEN COALESCE(
      (SELECT jsonb_object_agg(e->>'name', e) FROM jsonb_array_elements(${record}->'environments') e),
      '{}'::jsonb) END`;
}
