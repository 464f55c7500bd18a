import type { EventType } from "../../events/catalogue.ts";
import type { EventEffect } from "../../events/hooks.ts";
import { Prisma } from "../../generated/prisma/client.ts";

/**
 * Events that change the state of every flag of their project (their per-environment state
 * appears or disappears) without naming a flag.
 */
const PROJECT_FLAGS_EVENTS: EventType[] = ["project-environment-added", "project-environment-removed"];

/**
 * Keeps the history time travel reads (history.read.ts): the state of the flag the event names
 * (or, for PROJECT_FLAGS_EVENTS, of every flag of its project) right after it, as the database
 * function `vexil_flag_state` builds it. Runs in the event's statement (an effect of
 * src/event-hooks.ts), which sees every earlier change of the transaction, so the state is the
 * one the event produced.
 */
export const keepFlagHistory: EventEffect = {
  statement: () => Prisma.sql`
    INSERT INTO "FeatureStateVersion" ("featureName", "eventId", "eventType", "environment", "projectId",
                                       "createdBy", "createdAt", "state", "environments")
    SELECT flag.name, event.id, event.type, event.environment, COALESCE(state.value->>'project', event.project),
           event."createdBy", event."createdAt", state.value - 'environments',
           vexil_environments_by_name(state.value)
      FROM event
      CROSS JOIN LATERAL (
        SELECT event."featureName" AS name WHERE event."featureName" IS NOT NULL
        UNION ALL
        SELECT f.name FROM "Feature" f
         WHERE event."featureName" IS NULL AND event.type = ANY (${PROJECT_FLAGS_EVENTS})
           AND f."projectId" = event.project
      ) flag
      CROSS JOIN LATERAL (SELECT vexil_flag_state(flag.name) AS value) state
    RETURNING id`,
};
