import { randomUUID } from "node:crypto";
import type { Context } from "../context.ts";
import type { Tx } from "../db/database.ts";
import type { StoredEvent } from "../events/types.ts";
import { type Actor, actorOf } from "../modules/access/principal.ts";

/**
 * What a service needs to change state: the open transaction, who is acting, and the
 * events recorded so far (published only after commit). One mutation = one Write.
 */
export type Write = {
  tx: Tx;
  actor: Actor;
  now: Date;
  publicUrl: string;
  groupType: string;
  groupId: string;
  recorded: StoredEvent[];
};

export type WriteOptions = { actor?: Actor; groupType?: string; groupId?: string };

/**
 * Runs `work` in one transaction. On commit, the recorded events are published to live
 * subscribers; on error nothing is committed and nothing is published.
 */
export async function runWrite<T>(
  ctx: Pick<Context, "db" | "bus" | "principal" | "config" | "now">,
  work: (w: Write) => Promise<T>,
  options: WriteOptions = {},
): Promise<T> {
  const recorded: StoredEvent[] = [];
  const result = await ctx.db.$transaction(
    (tx) =>
      work({
        tx,
        actor: options.actor ?? actorOf(ctx.principal),
        now: ctx.now(),
        publicUrl: ctx.config.publicUrl,
        groupType: options.groupType ?? "transaction",
        groupId: options.groupId ?? randomUUID(),
        recorded,
      }),
    { maxWait: 10_000, timeout: 30_000 },
  );
  for (const event of recorded) ctx.bus.publish(event);
  return result;
}
