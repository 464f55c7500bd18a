import type { Tx } from "../../db/database.ts";
import type { Prisma } from "../../generated/prisma/client.ts";

// The addon's delivery log (read by `integrationEvents`), written by the delivery worker in
// src/jobs/ through this function: this module owns IntegrationEvent (src/db/table-owners.ts).

/** Logs one delivery attempt of an event to an addon. */
export async function logDeliveryAttempt(tx: Tx, data: Prisma.IntegrationEventUncheckedCreateInput) {
  await tx.integrationEvent.create({ data });
}
