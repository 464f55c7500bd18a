import type { AppBase } from "../context.ts";
import { markPotentiallyStaleFlags } from "../modules/features/lifecycle-change.write.ts";
import { SYSTEM_ACTOR } from "../shared/actor.ts";
import { tryJobLock } from "../shared/job-lock.ts";
import { runWrite } from "../shared/write.ts";
import { startPeriodic } from "./periodic.ts";

/** Any constant works: it names this job's lock among the database's advisory locks. */
const LOCK_KEY = 7_402_118;

/**
 * One pass of the potentially-stale job as the system. With several nodes on one database
 * only the node holding the transaction-scoped advisory lock marks, so no flag is marked
 * (and no event recorded) twice. Returns the names newly marked.
 */
export function markPotentiallyStaleOnce(
  deps: Pick<AppBase, "db" | "bus" | "config" | "now" | "eventHooks" | "changeKinds">,
): Promise<string[]> {
  return runWrite(
    { ...deps, principal: null },
    async (w) => {
      return (await tryJobLock(w.tx, LOCK_KEY)) ? markPotentiallyStaleFlags(w, w.now) : [];
    },
    { actor: SYSTEM_ACTOR },
  );
}

/** Starts the job (every minute, as Unleash's scheduler). */
export function startPotentiallyStaleMarker(deps: AppBase, intervalMs = 60_000): () => void {
  return startPeriodic("potentially-stale marking", intervalMs, deps.logger, () =>
    markPotentiallyStaleOnce(deps),
  );
}
