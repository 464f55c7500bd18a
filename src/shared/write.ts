import { randomUUID } from "node:crypto";
import type { Context } from "../context.ts";
import type { Tx } from "../db/database.ts";
import type { EventHooks } from "../events/hooks.ts";
import type { StoredEvent } from "../events/types.ts";
import { type Actor, actorOf } from "./actor.ts";
import type { ChangeKinds } from "./change-kinds.ts";
import { openTransaction } from "./direct-statements.ts";
import { NameExistsError, NotFoundError } from "./errors.ts";

/**
 * What a service needs to change state: the open transaction, who is acting, and the
 * events recorded so far (published only after commit). One mutation = one Write.
 */
export type Write = {
  tx: Tx;
  actor: Actor;
  now: Date;
  publicUrl: string;
  /** scrypt's cost for a password this write hashes (config.auth.passwordHashCost). */
  passwordHashCost: number;
  groupType: string;
  groupId: string;
  recorded: StoredEvent[];
  /** What modules registered to happen in the transaction of every event it records (recordEvent). */
  eventHooks: EventHooks;
  /** The change kinds modules above change-requests own, for the requests it proposes and applies. */
  changeKinds: ChangeKinds;
  /**
   * Set when the write ends credentials without an event saying so (sessions ended by a new
   * password): after commit every node is told, so open streams check their credential again.
   */
  accessChanged?: boolean;
};

export type WriteOptions = {
  actor?: Actor;
  groupType?: string;
  groupId?: string;
};

/** Prisma's limits for a write's transaction: waiting for a connection, and being open. */
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 30_000 };

/** Serialization failure and deadlock: PostgreSQL rolled the whole transaction back. */
const RETRIED_STATES = new Set(["40001", "40P01"]);
const MAX_ATTEMPTS = 4;

/**
 * Runs `work` in one transaction. On commit, the recorded events are published to live
 * subscribers; on error nothing is committed and nothing is published. A transaction that
 * PostgreSQL aborted as a deadlock or serialization failure is run again (it left nothing);
 * a unique key taken by a concurrent transaction is a 409, never a 500. Once committed, the
 * write is reported as done: a failing live listener is logged, not turned into an error.
 */
export async function runWrite<T>(
  ctx: Pick<Context, "db" | "bus" | "principal" | "config" | "now" | "eventHooks" | "changeKinds"> &
    Partial<Pick<Context, "logger">>,
  work: (w: Write) => Promise<T>,
  options: WriteOptions = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const recorded: StoredEvent[] = [];
    let write: Write | undefined;
    let result: T;
    try {
      result = await openTransaction(
        ctx.db,
        (tx) => {
          write = {
            tx,
            actor: options.actor ?? actorOf(ctx.principal),
            now: ctx.now(),
            publicUrl: ctx.config.publicUrl,
            passwordHashCost: ctx.config.auth.passwordHashCost,
            groupType: options.groupType ?? "transaction",
            groupId: options.groupId ?? randomUUID(),
            recorded,
            eventHooks: ctx.eventHooks,
            changeKinds: ctx.changeKinds,
          };
          return work(write);
        },
        TRANSACTION_OPTIONS,
      );
    } catch (error) {
      const state = sqlStateOf(error);
      if (state && RETRIED_STATES.has(state) && attempt < MAX_ATTEMPTS) continue;
      if (state === "23505") throw uniqueViolation(error);
      // A row a concurrent transaction deleted between this one's read and its write.
      if ((error as DriverErrorShape | null)?.code === "P2025") {
        throw deletedMeanwhile();
      }
      throw error;
    }
    for (const event of recorded) {
      try {
        ctx.bus.publish(event);
      } catch (error) {
        ctx.logger?.error("live notice failed after commit", {
          eventId: String(event.id),
          error: String(error),
        });
      }
    }
    if ((write as Write | undefined)?.accessChanged) ctx.bus.publishAccessChange();
    return result;
  }
}

/** A row the write made or changed, gone when read back (a concurrent change deleted it). */
export function deletedMeanwhile(): NotFoundError {
  return new NotFoundError("The record was deleted by a concurrent change.");
}

type DriverErrorShape = {
  code?: unknown;
  meta?: {
    modelName?: string;
    code?: unknown;
    driverAdapterError?: {
      cause?: { originalCode?: unknown; constraint?: { index?: string; fields?: string[] } };
    };
  };
  cause?: { originalCode?: unknown };
};

/** The PostgreSQL SQLSTATE behind a Prisma or driver-adapter error, if there is one. */
export function sqlStateOf(error: unknown): string | undefined {
  if (!error || typeof error !== "object") return undefined;
  const e = error as DriverErrorShape;
  const candidates = [e.meta?.driverAdapterError?.cause?.originalCode, e.meta?.code, e.cause?.originalCode];
  if (e.code === "P2002") candidates.push("23505");
  if (e.code === "P2034") candidates.push("40001");
  return candidates.find((c): c is string => typeof c === "string" && /^[0-9A-Z]{5}$/.test(c));
}

/** A key a concurrent transaction took first (the check before the insert passed for both). */
function uniqueViolation(error: unknown) {
  const model = (error as DriverErrorShape).meta?.modelName;
  const what = model ? model.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase() : "record";
  return new NameExistsError(
    `A ${what} with the same name or key already exists (created at the same time).`,
  );
}
