import type { AppBase } from "../context.ts";
import type { Tx } from "../db/database.ts";
import { applyChanges } from "../modules/change-requests/apply.write.ts";
import { conflictsOf } from "../modules/change-requests/conflicts.read.ts";
import {
  claimDueChangeRequest,
  failSchedule,
  suspendSchedule,
} from "../modules/change-requests/schedule.write.ts";
import {
  type LockedChangeRequest,
  lockChangeRequest,
  recordChangeRequestEvent,
} from "../modules/change-requests/store.write.ts";
import { userById } from "../modules/users/user.read.ts";
import { type Actor, SYSTEM_ACTOR } from "../shared/actor.ts";
import { sqlOf } from "../shared/sql.ts";
import { runWrite, type Write } from "../shared/write.ts";
import { startPeriodic } from "./periodic.ts";

export type SchedulerDeps = Pick<AppBase, "db" | "bus" | "config" | "logger" | "eventHooks" | "changeKinds">;
export type RunOutcome = { applied: number[]; failed: number[]; suspended: number[] };

/** How often a server process looks for due change requests. */
export const SCHEDULER_INTERVAL_MS = 10_000;
/** At most this many requests per run, so one run never holds the process for long. */
const MAX_PER_RUN = 100;

/** The user who scheduled the request acts for it; null when that user is gone. */
async function schedulerOf(tx: Tx, userId: number): Promise<Actor | null> {
  if (userId <= 0) return { ...SYSTEM_ACTOR, userId };
  const user = await userById(tx, userId);
  if (!user || user.deletedAt) return null;
  return { userId, name: user.username ?? user.email ?? `user-${userId}` };
}

/**
 * Applies one due request in a savepoint: on success it is Applied
 * (change-request-applied, change-request-scheduled-application-success); when applying
 * fails it stays Scheduled with status failed and the reason; when the scheduler is gone or
 * a change conflicts it is suspended (change-request-schedule-suspended).
 */
async function runOne(w: Write, cr: LockedChangeRequest, limits: SchedulerDeps["config"]["limits"]) {
  const schedule = cr.schedule;
  if (cr.state !== "Scheduled" || schedule?.status !== "pending") return "skipped" as const;
  const actor = await schedulerOf(w.tx, schedule.createdByUserId);
  if (!actor) {
    await suspendSchedule(
      w,
      cr,
      `The user who scheduled this change request (user id: ${schedule.createdByUserId}) has been deleted from this Vexil instance.`,
    );
    return "suspended" as const;
  }
  const acting: Write = { ...w, actor };
  const conflicts = await conflictsOf(w.tx, cr, w.changeKinds);
  if (conflicts.length > 0) {
    await suspendSchedule(acting, cr, conflicts.map((c) => c.conflict).join(" "));
    return "suspended" as const;
  }
  const recordedBefore = w.recorded.length;
  await sqlOf(w.tx).execute`SAVEPOINT scheduled_apply`;
  try {
    await applyChanges(acting, cr, limits);
    await recordChangeRequestEvent(acting, "change-request-scheduled-application-success", cr);
    return "applied" as const;
  } catch (error) {
    await sqlOf(w.tx).execute`ROLLBACK TO SAVEPOINT scheduled_apply`;
    w.recorded.length = recordedBefore;
    const reason = error instanceof Error ? error.message : String(error);
    await failSchedule(acting, cr, reason);
    return "failed" as const;
  }
}

/**
 * Applies every Scheduled change request due at `now`, one transaction each (grouped under
 * `change-request` + id). Safe to run from several processes at once.
 */
export async function runDueScheduledChangeRequests(deps: SchedulerDeps, now: Date): Promise<RunOutcome> {
  const outcome: RunOutcome = { applied: [], failed: [], suspended: [] };
  const ctx = { ...deps, principal: null, now: () => now };
  for (let i = 0; i < MAX_PER_RUN; i++) {
    const done = await runWrite(
      ctx,
      async (w) => {
        const id = await claimDueChangeRequest(w.tx, now);
        if (id === null) return null;
        const cr = await lockChangeRequest(w.tx, null, id);
        const result = await runOne({ ...w, groupId: String(id) }, cr, deps.config.limits);
        return { id, result };
      },
      { actor: SYSTEM_ACTOR, groupType: "change-request" },
    );
    if (!done) break;
    if (done.result !== "skipped") outcome[done.result].push(done.id);
  }
  return outcome;
}

/** Starts the periodic run in a server process; returns a function that stops it. */
export function startChangeRequestScheduler(
  deps: SchedulerDeps & { now: () => Date },
  intervalMs = SCHEDULER_INTERVAL_MS,
): () => void {
  return startPeriodic("scheduled change requests", intervalMs, deps.logger, () =>
    runDueScheduledChangeRequests(deps, deps.now()),
  );
}
