import type { Write } from "../../shared/write.ts";
import { type LockedChangeRequest, recordChangeRequestEvent } from "./store.write.ts";

// Outcomes of a scheduled application that the scheduler job (src/jobs/) settles: this module
// owns ChangeRequestSchedule (src/db/table-owners.ts), the job only decides when.

/** The request cannot be applied as scheduled (its scheduler is gone, or a change conflicts). */
export async function suspendSchedule(w: Write, cr: LockedChangeRequest, reason: string) {
  await w.tx.changeRequestSchedule.update({
    where: { changeRequestId: cr.id },
    data: { status: "suspended", reason },
  });
  await recordChangeRequestEvent(w, "change-request-schedule-suspended", cr, { data: { reason } });
}

/** Applying failed: the request stays Scheduled with status failed and the reason. */
export async function failSchedule(w: Write, cr: LockedChangeRequest, reason: string) {
  await w.tx.changeRequestSchedule.update({
    where: { changeRequestId: cr.id },
    data: { status: "failed", reason, failureReason: reason },
  });
  await recordChangeRequestEvent(w, "change-request-scheduled-application-failure", cr, {
    data: { reason },
  });
}
