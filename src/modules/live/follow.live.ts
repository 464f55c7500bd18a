import type { Db } from "../../db/database.ts";
import type { StoredEvent } from "../../events/types.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { RateLimitError } from "../../shared/errors.ts";
import { eventsAfter } from "../events/event.read.ts";
import type { EventFeed } from "./feed.live.ts";

/** Undelivered events one subscriber may have waiting before it is dropped as too slow. */
export const MAX_PENDING = 1000;
/** Stored events read per query while replaying. */
const REPLAY_BATCH = 500;

/** Delivers an event directly and returns true, or returns false to have it returned by next(). */
export type Push = (event: StoredEvent) => boolean;

export type FollowOptions = {
  /** Replay stored events after this id first; null/undefined: only events from now on. */
  afterId?: bigint | null;
  /** The same selection twice: as SQL for the replay, as a predicate for live events. */
  where: Prisma.EventWhereInput;
  accept: (event: StoredEvent) => boolean;
  maxPending?: number;
};

/**
 * Matching events in id order: the stored ones after `afterId`, then live ones, with no gap
 * and no duplicate at the switch. The replay reads only up to the feed's committed position,
 * and the live listener is attached in the same tick as the replay sees it has caught up with
 * that position, so the listener starts exactly where the replay stopped.
 */
export function followEvents(db: Db, feed: EventFeed, options: FollowOptions): LiveStream {
  return new LiveStream(db, feed, options);
}

/**
 * A live stream that first yields `null` once it is listening (the caller then sends the
 * current state), then the events: a change made after that first answer is never missed.
 */
export function withCurrentFirst(stream: LiveStream): AsyncIterableIterator<StoredEvent | null> {
  let primed = false;
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (primed) return stream.next();
      primed = true;
      await stream.attachNow();
      return { value: null, done: false };
    },
    return: () => stream.return(),
  };
}

/**
 * The iterator handed to graphql-ws / SSE. Hand-written (not an async generator) so that
 * `return()` on disconnect detaches at once, even while waiting for the next event. Live
 * events wait in a bounded buffer between the feed (which never waits) and the connection:
 * a subscriber more than `maxPending` events behind is ended with an error naming the last id
 * it received, so it can resubscribe with `afterId` and lose nothing.
 *
 * `nextPushing(push)` is next() for a consumer that can also deliver an event itself, at once
 * (src/modules/live/shared-results.plugin.ts writes a prebuilt frame to the subscriber's socket):
 * while it waits, each event goes to `push` first and is returned only if push declines it.
 */
export class LiveStream implements AsyncIterableIterator<StoredEvent> {
  private replay: AsyncGenerator<StoredEvent> | null = null;
  private live = false;
  private done = false;
  private readonly items: StoredEvent[] = [];
  /** Callers of next() waiting for an event, oldest first, with what may take an event first. */
  private readonly waiting: { resolve: (result: IteratorResult<StoredEvent>) => void; push?: Push }[] = [];
  private failure: Error | null = null;
  private lastSent: bigint | null;
  private detach: (() => void) | null = null;
  private readonly untrack: () => void;
  private readonly afterId: bigint | null;
  /** The selection as SQL, for the replay only. */
  private where: Prisma.EventWhereInput | null;
  /** The selection as a predicate, for live events. */
  private readonly accept: (event: StoredEvent) => boolean;
  private readonly maxPending: number;

  constructor(
    private readonly db: Db,
    private readonly feed: EventFeed,
    options: FollowOptions,
  ) {
    this.afterId = options.afterId ?? null;
    this.lastSent = this.afterId;
    this.where = options.where;
    this.accept = options.accept;
    this.maxPending = options.maxPending ?? MAX_PENDING;
    this.untrack = feed.track(this);
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  next(): Promise<IteratorResult<StoredEvent>> {
    return this.nextPushing();
  }

  nextPushing(push?: Push): Promise<IteratorResult<StoredEvent>> {
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return this.live ? this.nextLive(push) : this.nextReplayed(push);
  }

  private async nextReplayed(push?: Push): Promise<IteratorResult<StoredEvent>> {
    this.replay ??= this.replayThenAttach();
    const step = await this.replay.next();
    if (!step.done) return this.sent(step.value);
    this.goLive();
    if (this.done) return { value: undefined, done: true };
    return this.nextLive(push);
  }

  /**
   * A plain function, not an async one: a subscriber waits here for most of its life, and an
   * async function's frame and extra promise would be held for each one meanwhile.
   */
  private nextLive(push?: Push): Promise<IteratorResult<StoredEvent>> {
    while (push && this.items.length > 0 && pushed(push, this.items[0] as StoredEvent)) {
      this.sent(this.items.shift() as StoredEvent);
    }
    const item = this.items.shift();
    if (item) return Promise.resolve(this.sent(item));
    if (this.failure) {
      const failure = this.failure;
      this.end();
      return Promise.reject(failure);
    }
    return new Promise((resolve) => {
      this.waiting.push({ resolve, push });
    });
  }

  async return(): Promise<IteratorResult<StoredEvent>> {
    this.end();
    return { value: undefined, done: true };
  }

  /** Ends the stream from the server's side: a waiting next() returns done (shutdown). */
  end(): void {
    this.done = true;
    this.untrack?.();
    this.detach?.();
    this.detach = null;
    this.items.length = 0;
    for (const { resolve } of this.waiting.splice(0)) resolve({ value: undefined, done: true });
    void this.replay?.return(undefined);
  }

  /** Starts listening now (no replay), before the first `next()`. */
  async attachNow(): Promise<void> {
    this.goLive();
    await this.feed.ready();
    if (!this.done && !this.detach) this.attachAfter(this.afterId ?? this.feed.position);
  }

  /** Replay over: what only it needed goes (a subscription may stay open for days). */
  private goLive() {
    this.live = true;
    this.replay = null;
    this.where = null;
  }

  private sent(event: StoredEvent): IteratorResult<StoredEvent> {
    this.lastSent = event.id;
    return { value: event, done: false };
  }

  private async *replayThenAttach(): AsyncGenerator<StoredEvent> {
    await this.feed.ready();
    let cursor = this.afterId ?? this.feed.position;
    while (cursor < this.feed.position) {
      const upTo = this.feed.position;
      const range = { after: cursor, upTo, take: REPLAY_BATCH };
      const rows = await eventsAfter(this.db, range, this.where ?? {});
      for (const row of rows) if (this.accept(row)) yield row;
      cursor = rows.length === REPLAY_BATCH ? (rows.at(-1)?.id ?? upTo) : upTo;
    }
    // Same tick as the check above: no event can slip between replay and live.
    if (!this.done) this.attachAfter(cursor);
  }

  private attachAfter(after: bigint) {
    this.detach = this.feed.attach((event) => {
      if (event.id > after && this.accept(event)) this.offer(event);
    });
  }

  private offer(event: StoredEvent) {
    if (this.failure || this.done) return;
    const waiter = this.waiting[0];
    if (waiter?.push && pushed(waiter.push, event)) {
      this.sent(event);
      return;
    }
    if (waiter) {
      this.waiting.shift();
      waiter.resolve(this.sent(event));
      return;
    }
    if (this.items.length >= this.maxPending) {
      const resume = this.lastSent === null ? "" : ` Resubscribe with afterId: ${this.lastSent}.`;
      this.failure = new RateLimitError(
        `Subscriber too slow: more than ${this.items.length} events were waiting, so the subscription ended.${resume}`,
      );
      this.items.length = 0;
      this.detach?.();
      this.detach = null;
      return;
    }
    this.items.push(event);
  }
}

/**
 * Offers `event` to `push`. A push that throws counts as declined: the event then takes the
 * ordinary path, and the feed's loop over its listeners (this runs inside it) goes on.
 */
function pushed(push: Push, event: StoredEvent): boolean {
  try {
    return push(event);
  } catch {
    return false;
  }
}
