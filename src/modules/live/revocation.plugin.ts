import type { Plugin } from "graphql-yoga";
import type { AppDeps, Context } from "../../context.ts";
import { feedFor } from "./feed.live.ts";
import { followEvents } from "./follow.live.ts";

/** Events after which an open subscription's credential may no longer stand. */
const REVOKING = new Set([
  "user-deleted",
  "user-updated",
  "api-token-deleted",
  "api-token-updated",
  "pat-deleted",
]);
/** Expiry and logout record no event: every subscription's credential is asked again this often. */
const RECHECK_MS = 30_000;

type Watched = { stillValid: () => Promise<boolean>; end: () => void };

const registries = new WeakMap<object, Set<Watched>>();

/**
 * Subscriptions (graphql-ws and SSE) end when their credential stops standing for the caller:
 * a deleted user, a deleted token or personal access token, a changed token. The audit log
 * says when (any node's events, through the live feed), within moments; expiry and logout are
 * caught by a check every 30 s. The subscriber gets a normal end (graphql-ws `complete`, the
 * SSE stream closes) and a new subscription with the same credential is refused.
 */
export function useCredentialRevocation(deps: AppDeps): Plugin<Record<string, unknown>, Context> {
  return {
    onSubscribe({ args }) {
      const context = args.contextValue as unknown as Context;
      return {
        onSubscribeResult({ result, setResult }) {
          if (!isAsyncIterable(result) || !context.principal) return;
          setResult(endedOnRevocation(watchersOf(deps), result, context.credentialStillValid));
        },
      };
    },
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null && Symbol.asyncIterator in value;
}

/** The app's watched subscriptions, and the one loop that asks them again when it matters. */
function watchersOf(deps: AppDeps): Set<Watched> {
  let watched = registries.get(deps.bus);
  if (watched) return watched;
  const created = new Set<Watched>();
  registries.set(deps.bus, created);
  const recheck = () => Promise.all([...created].map(endIfRevoked));
  void (async () => {
    const revocations = followEvents(deps.db, feedFor(deps), {
      where: {},
      accept: (e) => REVOKING.has(e.type),
    });
    for await (const _event of revocations) await recheck();
  })().catch((error) => deps.logger.warn("revocation watch ended", { error: String(error) }));
  setInterval(() => void recheck(), RECHECK_MS).unref();
  watched = created;
  return watched;
}

async function endIfRevoked(watched: Watched): Promise<void> {
  const valid = await watched.stillValid().catch(() => true);
  if (!valid) watched.end();
}

/** The same stream, ended (as if completed) once its credential is found revoked. */
function endedOnRevocation<T>(
  watched: Set<Watched>,
  source: AsyncIterable<T>,
  stillValid: () => Promise<boolean>,
): AsyncIterableIterator<T> {
  const inner = source[Symbol.asyncIterator]();
  let revoked = false;
  const entry: Watched = {
    stillValid,
    end: () => {
      revoked = true;
      watched.delete(entry);
      void inner.return?.();
    },
  };
  watched.add(entry);
  const finished = (): IteratorResult<T> => {
    watched.delete(entry);
    return { value: undefined, done: true };
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (revoked) return finished();
      const item = await inner.next();
      return item.done || revoked ? finished() : item;
    },
    async return() {
      finished();
      await inner.return?.();
      return { value: undefined, done: true };
    },
    async throw(error: unknown) {
      finished();
      if (inner.throw) return inner.throw(error);
      throw error;
    },
  };
}

/** Open subscriptions of this app (node), for `/metrics`. */
export function openSubscriptions(deps: Pick<AppDeps, "bus">): number {
  return registries.get(deps.bus)?.size ?? 0;
}
