import type { AppDeps } from "../context.ts";
import { effectWrote } from "../events/record.ts";
import type { StoredEvent } from "../events/types.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { addonById } from "../modules/addons/addon.read.ts";
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  queueAddonDeliveries,
  settleDelivery,
} from "../modules/addons/addon-deliveries.write.ts";
import { logDeliveryAttempt } from "../modules/addons/integration-event.write.ts";
import { eventById } from "../modules/events/event.read.ts";
import { openTransaction } from "../shared/direct-statements.ts";
import { type DeliveryOutcome, deliverEvent, eventView } from "./webhook.ts";

/** Deliveries claimed (and sent in parallel) per round. */
const BATCH = 10;
/** Upper bound of the retry delay. */
const MAX_BACKOFF_MS = 15 * 60_000;

export type DeliveryWorker = {
  /** Claims and handles due deliveries until none is left; resolves with how many it handled. */
  drain(): Promise<number>;
  stop(): Promise<void>;
};

/**
 * Delivers the outbox (AddonDelivery rows, queued in the event's own statement by
 * queueAddonDeliveries) to the addons, at least once, from any number of processes:
 * - a claim is one statement: due rows are picked with FOR UPDATE SKIP LOCKED (two workers
 *   never pick the same row), their attempt count goes up and they get a lease (`lockedUntil`)
 *   longer than a request may take; the lease, not a held lock, keeps other workers away while
 *   the request runs, so no transaction stays open across the network call;
 * - the outcome is written with the attempt as an integration event; failures are retried
 *   with exponential backoff up to the configured number of attempts, then the row is `dead`;
 * - a process killed mid-request leaves the row pending with a lease that runs out: the next
 *   claim (by any process, or this one restarted) logs the interrupted attempt and sends again.
 * It wakes on committed-event notices of the bus that may have queued deliveries (a delivery
 * exists only with an event) and polls as a safety net.
 */
export function startDeliveryWorker(
  deps: Pick<AppDeps, "db" | "bus" | "logger" | "config" | "now">,
): DeliveryWorker {
  const settings = deps.config.integrations;
  // Longer than any request may take, so only a dead worker's lease runs out.
  const leaseMs = settings.timeoutMs * 2 + 1_000;
  let stopped = false;
  let running: Promise<number> | null = null;
  let again = false;

  const drain = async (): Promise<number> => {
    let handled = 0;
    for (;;) {
      const claimed = await claimDueDeliveries(deps.db, deps.now(), BATCH, leaseMs);
      if (claimed.length === 0) return handled;
      await Promise.all(claimed.map((row) => handle(deps, row)));
      handled += claimed.length;
      if (stopped) return handled;
    }
  };
  const wake = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((error) => {
        deps.logger.warn("delivery worker round failed", { error: String(error) });
        return 0;
      })
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          wake();
        }
      });
  };
  // A notice of this node's own commit says whether it queued deliveries; others might have.
  const unlisten = deps.bus.listen((_id, committedHere) => {
    if (!committedHere || effectWrote(committedHere, queueAddonDeliveries)) wake();
  });
  const timer = setInterval(wake, settings.pollMs);
  timer.unref();
  wake();
  return {
    drain,
    async stop() {
      stopped = true;
      clearInterval(timer);
      unlisten();
      await running;
    },
  };
}

async function handle(deps: Pick<AppDeps, "db" | "logger" | "config" | "now">, row: ClaimedDelivery) {
  const [addon, event] = await Promise.all([
    addonById(deps.db, row.addonId),
    eventById(deps.db, row.eventId),
  ]);
  if (!addon || !event) return; // the addon was deleted meanwhile (its deliveries went with it)
  const settings = deps.config.integrations;
  if (!addon.enabled) {
    await settleDelivery(deps.db, row, { status: "cancelled", lockedUntil: null });
    return;
  }
  const parameters = addon.parameters as Record<string, unknown>;
  if (row.interrupted) {
    await logDeliveryAttempt(deps.db, {
      addonId: addon.id,
      createdAt: deps.now(),
      state: "failed",
      stateDetails: `Attempt ${row.attempts - 1} was interrupted (the server stopped before it finished); sending again.`,
      event: toJson(eventView(event)),
      details: toJson({
        url: String(parameters.url ?? ""),
        contentType: String(parameters.contentType || "application/json"),
        body: null,
      }),
    });
  }
  const outcome = await deliverEvent(addon.provider, parameters, event, {
    allowLinkLocal: settings.allowLinkLocal,
    timeoutMs: settings.timeoutMs,
    slackApiUrl: settings.slackApiUrl,
  });
  await record(deps, row, addon.id, event, outcome);
}

/** Writes the attempt's log entry and the row's next state together. */
async function record(
  deps: Pick<AppDeps, "db" | "logger" | "config" | "now">,
  row: ClaimedDelivery,
  addonId: number,
  event: StoredEvent,
  outcome: DeliveryOutcome,
) {
  const settings = deps.config.integrations;
  const now = deps.now();
  const delivered = outcome.state !== "failed";
  const giveUp = !delivered && (!outcome.retryable || row.attempts >= settings.maxAttempts);
  const backoff = Math.min(settings.retryBaseMs * 2 ** (row.attempts - 1), MAX_BACKOFF_MS);
  const next: Prisma.AddonDeliveryUpdateManyMutationInput = delivered
    ? { status: "delivered", lockedUntil: null }
    : giveUp
      ? { status: "dead", lockedUntil: null }
      : { lockedUntil: null, nextAttemptAt: new Date(now.getTime() + backoff) };
  const retryNote = delivered ? "" : giveUp ? " Giving up." : ` Retrying in ${backoff} ms.`;
  await openTransaction(deps.db, async (tx) => {
    // Only the holder of this attempt's lease may settle it (a lease that ran out was re-claimed).
    if (!(await settleDelivery(tx, row, next))) return;
    await logDeliveryAttempt(tx, {
      addonId,
      createdAt: now,
      state: outcome.state,
      stateDetails: `${outcome.stateDetails}\nAttempt ${row.attempts} of ${settings.maxAttempts}.${retryNote}`,
      event: toJson(eventView(event)),
      details: toJson(outcome.details),
    });
  });
  if (!delivered)
    deps.logger.info("webhook delivery failed", {
      addonId,
      eventId: Number(event.id),
      attempt: row.attempts,
    });
}

function toJson(value: unknown): Prisma.InputJsonValue {
  return JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue;
}
