import type { Plugin } from "graphql-yoga";
import type { AppDeps, Context } from "../../context.ts";
import { RESYNC } from "../../events/bus.ts";
import { onExpiry } from "./expiry.live.ts";
import { feedFor } from "./feed.live.ts";
import { followEvents } from "./follow.live.ts";

/**
 * Events after which an open stream's credential may no longer stand, or no longer stand for
 * the same permissions: users, their roles and project memberships, roles, tokens.
 */
const ACCESS_EVENT =
  /^(user|api-token|pat|role|project-access|project-user|project-group|group|service-account)-/;
const changesAccess = (type: string) => ACCESS_EVENT.test(type) || type === "project-deleted";
/** A backstop for a change no node could announce (a notice lost with its node). */
const BACKSTOP_MS = 30_000;

type Watched = { stillValid: () => Promise<boolean>; end: () => void };

const registries = new WeakMap<object, Set<Watched>>();

/**
 * Subscriptions (graphql-ws and SSE) end when their credential stops standing for the caller
 * with the permissions it had: a deleted or demoted user, a changed role or membership, a
 * deleted or changed token, a logout or a new password, an expiry. Each open subscription's
 * principal is resolved again after every access event (any node's, through the live feed),
 * every access notice (logout, sessions ended: `bus.publishAccessChange`, any node) and at its
 * credential's expiry, so within moments. The subscriber gets a normal end (graphql-ws
 * `complete`, the SSE stream closes); subscribing again gets the credential's new permissions,
 * or is refused.
 */
export function useCredentialRevocation(deps: AppDeps): Plugin<Record<string, unknown>, Context> {
  return {
    onSubscribe({ args }) {
      const context = args.contextValue as unknown as Context;
      return {
        onSubscribeResult({ result, setResult }) {
          if (!isAsyncIterable(result) || !context.principal) return;
          const expiry = { now: deps.now, at: context.principal.expiresAt };
          setResult(endedOnRevocation(watchersOf(deps), result, context.credentialStillValid, expiry));
        },
      };
    },
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null && Symbol.asyncIterator in value;
}

/** The app's watched subscriptions, and what makes it ask them all again. */
function watchersOf(deps: AppDeps): Set<Watched> {
  let watched = registries.get(deps.bus);
  if (watched) return watched;
  const created = new Set<Watched>();
  registries.set(deps.bus, created);
  const recheck = coalesced(() => Promise.all([...created].map(endIfRevoked)).then(() => undefined));
  void (async () => {
    const changes = followEvents(deps.db, feedFor(deps), { where: {}, accept: (e) => changesAccess(e.type) });
    for await (const _event of changes) recheck();
  })().catch((error) => deps.logger.warn("revocation watch ended", { error: String(error) }));
  deps.bus.listenAccessChange(recheck);
  deps.bus.listen((id) => {
    if (id === RESYNC) recheck();
  });
  setInterval(recheck, BACKSTOP_MS).unref();
  watched = created;
  return watched;
}

/** Runs `check` now, or once more after the run in progress: a burst of changes costs two runs. */
function coalesced(check: () => Promise<void>): () => void {
  let running: Promise<void> | null = null;
  let again = false;
  const run = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = check().finally(() => {
      running = null;
      if (again) {
        again = false;
        run();
      }
    });
  };
  return run;
}

async function endIfRevoked(watched: Watched): Promise<void> {
  const valid = await watched.stillValid().catch(() => true);
  if (!valid) watched.end();
}

/** The same stream, ended (as if completed) once its credential is found revoked or expired. */
function endedOnRevocation<T>(
  watched: Set<Watched>,
  source: AsyncIterable<T>,
  stillValid: () => Promise<boolean>,
  expiry: { now: () => Date; at: Date | null | undefined },
): AsyncIterableIterator<T> {
  const inner = source[Symbol.asyncIterator]();
  let revoked = false;
  const entry: Watched = {
    stillValid,
    end: () => {
      revoked = true;
      watched.delete(entry);
      stopExpiry();
      void inner.return?.();
    },
  };
  watched.add(entry);
  const stopExpiry = onExpiry(expiry.now, expiry.at, entry.end);
  const finished = (): IteratorResult<T> => {
    watched.delete(entry);
    stopExpiry();
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
