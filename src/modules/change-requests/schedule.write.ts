import type { Tx } from "../../db/database.ts";
import { recordEvent } from "../../events/record.ts";
import { sqlOf } from "../../shared/sql.ts";
import type { Write } from "../../shared/write.ts";
import { inChangeRequest, type LockedChangeRequest } from "./store.write.ts";

// Outcomes of a scheduled application that the scheduler job (src/jobs/) settles: this module
// owns ChangeRequestSchedule (src/db/table-owners.ts), the job only decides when.

/** The request cannot be applied as scheduled (its scheduler is gone, or a change conflicts). */
export async function suspendSchedule(w: Write, cr: LockedChangeRequest, reason: string) {
  await w.tx.changeRequestSchedule.update({
    where: { changeRequestId: cr.id },
    data: { status: "suspended", reason },
  });
  const place = inChangeRequest(cr);
  await recordEvent(w, {
    type: "change-request-schedule-suspended",
    ...place,
    data: { ...place.data, reason },
  });
}

/** Applying failed: the request stays Scheduled with status failed and the reason. */
export async function failSchedule(w: Write, cr: LockedChangeRequest, reason: string) {
  await w.tx.changeRequestSchedule.update({
    where: { changeRequestId: cr.id },
    data: { status: "failed", reason, failureReason: reason },
  });
  const place = inChangeRequest(cr);
  await recordEvent(w, {
    type: "change-request-scheduled-application-failure",
    ...place,
    data: { ...place.data, reason },
  });
}

/**
 * Claims the oldest due Scheduled change request that no other process is working on
 * (`FOR UPDATE SKIP LOCKED`: with several processes on one PostgreSQL each request is taken
 * by exactly one, and after its commit it is no longer pending, so never applied twice).
 */
export async function claimDueChangeRequest(tx: Tx, now: Date): Promise<number | null> {
  const rows = await sqlOf(tx).query<{ id: number }>`
    SELECT c.id FROM "ChangeRequest" c
    JOIN "ChangeRequestSchedule" s ON s."changeRequestId" = c.id
    WHERE c.state = 'Scheduled' AND s.status = 'pending' AND s."scheduledAt" <= ${now}
    ORDER BY s."scheduledAt", c.id
    LIMIT 1
    FOR UPDATE OF c SKIP LOCKED`;
  return rows[0]?.id ?? null;
}
