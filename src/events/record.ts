import { isDeepStrictEqual } from "node:util";
import { sqlOf } from "../shared/sql.ts";
import type { Write } from "../shared/write.ts";
import type { EventType } from "./catalogue.ts";
import { eventLabel, eventSummary } from "./format.ts";
import type { StoredEvent } from "./types.ts";

export type EventInput = {
  type: EventType;
  project?: string | null;
  environment?: string | null;
  featureName?: string | null;
  data?: unknown;
  preData?: unknown;
  /** Defaults to the flag's current tags when `featureName` is set. */
  tags?: { type: string; value: string }[];
};

/**
 * The one event recorder. Writes the event in the caller's transaction (so a rollback leaves
 * no event), queues a delivery (transactional outbox) for every enabled addon it matches, and
 * queues it for publishing after commit. A change whose `data` equals its
 * `preData` changed nothing and records nothing (returns null).
 */
export async function recordEvent(w: Write, input: EventInput): Promise<StoredEvent | null> {
  if (
    input.data !== undefined &&
    input.preData !== undefined &&
    isDeepStrictEqual(input.data, input.preData)
  ) {
    return null;
  }
  const base = {
    type: input.type,
    createdBy: w.actor.name,
    project: input.project ?? null,
    environment: input.environment ?? null,
    featureName: input.featureName ?? null,
  };
  const event = await insertWithDeliveries(w, {
    ...base,
    createdByUserId: w.actor.userId,
    data: jsonText(input.data),
    preData: jsonText(input.preData),
    // Null: the statement takes the flag's current tags (none without a flag).
    tags: input.tags ? JSON.stringify(input.tags) : null,
    label: eventLabel(input.type),
    summary: eventSummary(base, w.publicUrl),
  });
  w.recorded.push(event);
  return event;
}

type EventValues = Pick<
  StoredEvent,
  "type" | "createdBy" | "createdByUserId" | "project" | "environment" | "featureName" | "label" | "summary"
> & { data: string | null; preData: string | null; tags: string | null };

/**
 * Events that change the state of every flag of their project (their per-environment state
 * appears or disappears) without naming a flag.
 */
const PROJECT_FLAGS_EVENTS = ["project-environment-added", "project-environment-removed"];

/**
 * Inserts the event and, in the same statement (one round trip per event), the outbox rows
 * for the enabled addons that react to it (spec §6 rule 2, reference §8.3): its type is
 * listed, and its project and environment are in scope (an empty list or a leading `*` means
 * all; an event without a project or environment passes that filter).
 * The same statement keeps the history time travel reads (src/modules/time-travel): the state
 * of the flag the event names (or, for PROJECT_FLAGS_EVENTS, of every flag of its project)
 * right after it. The statement sees every earlier change of the transaction, so the state is
 * the one the event produced.
 */
const withDeliveries = new WeakSet<StoredEvent>();

/**
 * Whether recording `event` (an event this process committed) queued addon deliveries: the
 * delivery worker needs to look for work only then, or on another node's notice.
 */
export function queuedDeliveries(event: StoredEvent): boolean {
  return withDeliveries.has(event);
}

async function insertWithDeliveries(w: Write, v: EventValues): Promise<StoredEvent> {
  const [event] = await sqlOf(w.tx).query<StoredEvent & { queuedDeliveries: boolean }>`
    WITH event AS (
      INSERT INTO "Event" ("type", "createdAt", "createdBy", "createdByUserId", "project", "environment",
                           "featureName", "data", "preData", "tags", "label", "summary", "groupType", "groupId")
      VALUES (${v.type}, ${new Date()}::timestamp(3), ${v.createdBy}, ${v.createdByUserId}, ${v.project},
              ${v.environment}, ${v.featureName}, ${v.data}::jsonb, ${v.preData}::jsonb,
              COALESCE(${v.tags}::jsonb, (
                SELECT COALESCE(jsonb_agg(jsonb_build_object('type', t."tagType", 'value', t."tagValue")
                                          ORDER BY t."tagType", t."tagValue"), '[]'::jsonb)
                  FROM "FeatureTag" t WHERE t."featureName" = ${v.featureName})),
              ${v.label}, ${v.summary}, ${w.groupType}, ${w.groupId})
      RETURNING *
    ), deliveries AS (
      INSERT INTO "AddonDelivery" ("addonId", "eventId", "nextAttemptAt")
      SELECT a.id, event.id, ${w.now}::timestamp(3) FROM "Addon" a, event
       WHERE a.enabled AND event.type = ANY (a.events)
         AND (event.project IS NULL OR cardinality(a.projects) = 0 OR a.projects[1] = '*'
              OR event.project = ANY (a.projects))
         AND (event.environment IS NULL OR cardinality(a.environments) = 0 OR a.environments[1] = '*'
              OR event.environment = ANY (a.environments))
      RETURNING "addonId"
    ), versions AS (
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
    )
    SELECT event.*, EXISTS (SELECT FROM deliveries) AS "queuedDeliveries" FROM event`;
  if (!event) throw new Error("the event insert returned no row");
  const { queuedDeliveries, ...stored } = event;
  if (queuedDeliveries) withDeliveries.add(stored);
  return stored;
}

/** `value` as JSON text for a jsonb column; null for none. */
function jsonText(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}
