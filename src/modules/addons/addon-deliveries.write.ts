import type { Db, Tx } from "../../db/database.ts";
import type { EventEffect } from "../../events/hooks.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { sqlOf } from "../../shared/sql.ts";

// The webhook outbox: every event queues an AddonDelivery row per addon it matches, in the
// event's own statement (queueAddonDeliveries, an effect of src/event-hooks.ts); the delivery
// worker (src/jobs/delivery-worker.ts) claims and settles them through these functions.

/**
 * Queues the outbox rows for the enabled addons that react to the event (spec §6 rule 2,
 * reference §8.3): its type is listed, and its project and environment are in scope (an empty
 * list or a leading `*` means all; an event without a project or environment passes that filter).
 */
export const queueAddonDeliveries: EventEffect = {
  statement: ({ now }) => Prisma.sql`
    INSERT INTO "AddonDelivery" ("addonId", "eventId", "nextAttemptAt")
    SELECT a.id, event.id, ${now}::timestamp(3) FROM "Addon" a, event
     WHERE a.enabled AND event.type = ANY (a.events)
       AND (event.project IS NULL OR cardinality(a.projects) = 0 OR a.projects[1] = '*'
            OR event.project = ANY (a.projects))
       AND (event.environment IS NULL OR cardinality(a.environments) = 0 OR a.environments[1] = '*'
            OR event.environment = ANY (a.environments))
    RETURNING "addonId"`,
};

export type ClaimedDelivery = {
  id: bigint;
  addonId: number;
  eventId: bigint;
  attempts: number;
  interrupted: boolean;
};

/**
 * Claims up to `limit` due deliveries in one statement: FOR UPDATE SKIP LOCKED (two workers
 * never pick the same row), attempt count up, and a lease (`lockedUntil`) that keeps other
 * workers away while the request runs. `interrupted`: an earlier attempt's lease ran out.
 */
export async function claimDueDeliveries(
  db: Db,
  now: Date,
  limit: number,
  leaseMs: number,
): Promise<ClaimedDelivery[]> {
  const at = now.toISOString();
  const until = new Date(now.getTime() + leaseMs).toISOString();
  const rows = await sqlOf(db).query<ClaimedDelivery>`
    WITH due AS (
       SELECT id, "lockedUntil" IS NOT NULL AS interrupted FROM "AddonDelivery"
       WHERE status = 'pending'
         AND "nextAttemptAt" <= (${at}::timestamptz AT TIME ZONE 'UTC')
         AND ("lockedUntil" IS NULL OR "lockedUntil" <= (${at}::timestamptz AT TIME ZONE 'UTC'))
       ORDER BY "nextAttemptAt", id
       LIMIT ${limit}
       FOR UPDATE SKIP LOCKED
     )
     UPDATE "AddonDelivery" d
        SET attempts = d.attempts + 1, "lockedUntil" = (${until}::timestamptz AT TIME ZONE 'UTC')
       FROM due WHERE d.id = due.id
     RETURNING d.id, d."addonId", d."eventId", d.attempts, due.interrupted`;
  return rows.map((r) => ({
    ...r,
    id: BigInt(r.id),
    eventId: BigInt(r.eventId),
    attempts: Number(r.attempts),
  }));
}

/**
 * Settles a claimed delivery with its next state; only the holder of this attempt's lease may
 * (a lease that ran out was re-claimed). Returns whether it still held it.
 */
export async function settleDelivery(
  tx: Tx,
  row: Pick<ClaimedDelivery, "id" | "attempts">,
  next: Prisma.AddonDeliveryUpdateManyMutationInput,
): Promise<boolean> {
  const owned = await tx.addonDelivery.updateMany({
    where: { id: row.id, attempts: row.attempts },
    data: next,
  });
  return owned.count > 0;
}
