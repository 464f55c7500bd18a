import { recordEvent } from "../../events/record.ts";
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
