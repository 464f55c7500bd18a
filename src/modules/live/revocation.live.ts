import type { FreshPrincipals } from "../../context.ts";
import type { Db } from "../../db/database.ts";
import { type EventBus, RESYNC } from "../../events/bus.ts";
import type { Logger } from "../../shared/logger.ts";
import { onExpiry } from "./expiry.live.ts";
import type { EventFeed } from "./feed.live.ts";
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

/** When a credential expires, on the app's clock. */
export type Expiry = { now: () => Date; at: Date | null | undefined };

/**
 * The app's open subscriptions, each ended once its credential no longer stands for the caller
 * with the permissions it had (revocation.plugin.ts says when). Watching starts with the first
 * subscription: it follows the feed's access events, the bus's access notices and resyncs, and
 * a backstop timer; `close()` stops all three.
 */
export type RevocationWatch = {
  /** The same stream, ended (as if completed) once its credential is found revoked or expired. */
  watch<T>(
    source: AsyncIterable<T>,
    stillValid: (fresh: FreshPrincipals) => Promise<boolean>,
    expiry: Expiry,
  ): AsyncIterableIterator<T>;
  /** Open subscriptions watched on this node (for `/metrics`). */
  open(): number;
  close(): void;
};

type Watched = { stillValid: (fresh: FreshPrincipals) => Promise<boolean>; end: () => void };

export function createRevocationWatch(deps: {
  db: Db;
  bus: EventBus;
  logger: Logger;
  feed: EventFeed;
}): RevocationWatch {
  const watched = new Set<Watched>();
  let stop: (() => void) | null = null;
  let closed = false;
  const start = () => {
    if (stop || closed) return;
    // One sweep reads each set of credentials once (10,000 subscriptions of one token: one read).
    const recheck = coalesced(() => {
      const fresh: FreshPrincipals = new Map();
      return Promise.all([...watched].map((w) => endIfRevoked(w, fresh))).then(() => undefined);
    });
    const changes = followEvents(deps.db, deps.feed, { where: {}, accept: (e) => changesAccess(e.type) });
    void (async () => {
      for await (const _event of changes) recheck();
    })().catch((error) => deps.logger.warn("revocation watch ended", { error: String(error) }));
    const unlistenAccess = deps.bus.listenAccessChange(recheck);
    const unlisten = deps.bus.listen((id) => {
      if (id === RESYNC) recheck();
    });
    const backstop = setInterval(recheck, BACKSTOP_MS).unref();
    stop = () => {
      void changes.return();
      unlistenAccess();
      unlisten();
      clearInterval(backstop);
    };
  };
  return {
    watch(source, stillValid, expiry) {
      start();
      return endedOnRevocation(watched, source, stillValid, expiry);
    },
    open: () => watched.size,
    close() {
      closed = true;
      stop?.();
    },
  };
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

async function endIfRevoked(watched: Watched, fresh: FreshPrincipals): Promise<void> {
  const valid = await watched.stillValid(fresh).catch(() => true);
  if (!valid) watched.end();
}

/** The same stream, ended (as if completed) once its credential is found revoked or expired. */
function endedOnRevocation<T>(
  watched: Set<Watched>,
  source: AsyncIterable<T>,
  stillValid: (fresh: FreshPrincipals) => Promise<boolean>,
  expiry: Expiry,
): AsyncIterableIterator<T> {
  return new EndedOnRevocation(watched, source[Symbol.asyncIterator](), stillValid, expiry);
}

/**
 * A class, and its own entry in the watched set: a subscriber waits in next() for most of its
 * life, and closures per subscriber would be held meanwhile.
 */
class EndedOnRevocation<T> implements AsyncIterableIterator<T>, Watched {
  private revoked = false;
  private readonly stopExpiry: () => void;

  constructor(
    private readonly watched: Set<Watched>,
    private readonly inner: AsyncIterator<T>,
    readonly stillValid: (fresh: FreshPrincipals) => Promise<boolean>,
    expiry: Expiry,
  ) {
    watched.add(this);
    this.stopExpiry = onExpiry(expiry.now, expiry.at, () => this.end());
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  /** Revoked or expired: a waiting next() returns done. */
  end(): void {
    this.revoked = true;
    this.watched.delete(this);
    this.stopExpiry();
    void this.inner.return?.();
  }

  private finished(): IteratorResult<T> {
    this.watched.delete(this);
    this.stopExpiry();
    return { value: undefined, done: true };
  }

  // Not async: a subscriber waits in next() for most of its life (see LiveStream.nextLive).
  next(): Promise<IteratorResult<T>> {
    if (this.revoked) return Promise.resolve(this.finished());
    return this.inner.next().then((item) => (item.done || this.revoked ? this.finished() : item));
  }

  async return(): Promise<IteratorResult<T>> {
    this.finished();
    await this.inner.return?.();
    return { value: undefined, done: true };
  }

  async throw(error: unknown): Promise<IteratorResult<T>> {
    this.finished();
    if (this.inner.throw) return this.inner.throw(error);
    throw error;
  }
}
