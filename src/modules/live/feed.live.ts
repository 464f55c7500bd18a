import type { Db } from "../../db/database.ts";
import type { EventBus } from "../../events/bus.ts";
import { probeHorizon, waitForTransactionsToEnd } from "../../events/horizon.ts";
import type { StoredEvent } from "../../events/types.ts";
import type { Logger } from "../../shared/logger.ts";
import { eventsAfter } from "../events/event.read.ts";

/** How often the feed re-reads the log without a notice (covers notices lost with a node). */
const POLL_MS = 1000;
/** Events read from the log per query. */
const BATCH = 1000;

type Listener = (event: StoredEvent) => void;

/** A live subscription the feed can end (LiveStream). */
export type Endable = { end(): void };

/**
 * This node's view of the audit log as one stream in id order, shared by every live
 * subscriber of the node: one per app, built with its services (src/services.ts).
 *
 * Event ids come from a sequence and are allocated before commit, so a transaction can commit
 * id 7 after id 8 is already visible. Delivering 8 at once would make "resume after 8" skip 7
 * for ever. The feed therefore only moves its `position` (the committed high-water mark) to a
 * `cutoff` once no transaction can still commit an id at or below it (the committed horizon,
 * src/events/horizon.ts: read the sequence, list the running xids, wait for them to end), then
 * reads the events in (position, cutoff] in id order, hands them out, position := cutoff.
 * Ids that never show up were rolled back. Bus notices only wake the loop, so a duplicate,
 * late or lost notice cannot cause a duplicate or a gap, and nothing is ever delivered for a
 * rolled-back transaction (its row is never visible).
 *
 * Events committed by this node come with their notice (the rows as inserted). When those
 * cover every id in (position, cutoff], the feed hands them out without reading them back:
 * one statement less between a commit and its subscribers. Any other id in the range (another
 * node's, a rolled-back one, one not published yet) makes the feed read the range as above.
 */
export class EventFeed {
  /** Every event with an id at or below this has been handed out (or will never exist). */
  position = 0n;
  /** True while the feed waits for older transactions to end before it hands out newer ids. */
  holdingBack = false;
  private readonly listeners = new Set<Listener>();
  /** Events this node committed and published, by id, not handed out yet (at most BATCH). */
  private readonly committedHere = new Map<bigint, StoredEvent>();
  private started: Promise<void> | null = null;
  private running = false;
  private dirty = false;
  private timer: NodeJS.Timeout | null = null;
  private unlisten: (() => void) | null = null;
  /** Every open subscription of this node, attached or still replaying. */
  private readonly streams = new Set<Endable>();
  private closed = false;
  private readonly lagObservers = new Set<(seconds: number) => void>();

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    private readonly logger: Logger,
  ) {}

  /** Resolves once `position` is known (the first subscriber starts the feed). */
  ready(): Promise<void> {
    this.started ??= this.start();
    return this.started;
  }

  /** Adds a listener for events after the current position; call synchronously after reading it. */
  attach(listener: Listener): () => void {
    this.listeners.add(listener);
    this.timer ??= setInterval(() => this.wake(), POLL_MS).unref();
    // Events may have been committed while nobody listened (the feed then stands still).
    this.wake();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
        this.committedHere.clear();
      }
    };
  }

  /**
   * Tells `observer` the lag of every event handed out: seconds from its insert (just before
   * its commit, on whichever node) to its hand-out to this node's subscribers. Returns the
   * unregister function. Only events handed out are measured: the feed reads the log while
   * someone subscribes.
   */
  observeLag(observer: (seconds: number) => void): () => void {
    this.lagObservers.add(observer);
    return () => this.lagObservers.delete(observer);
  }

  /**
   * Registers an open subscription so that `close()` can end it; returns the unregister
   * function. After `close()`, a new subscription is ended at once.
   */
  track(stream: Endable): () => void {
    if (this.closed) {
      stream.end();
      return () => undefined;
    }
    this.streams.add(stream);
    return () => this.streams.delete(stream);
  }

  /**
   * The node is shutting down: every open subscription ends now, cleanly (SSE streams send
   * `complete`, graphql-ws sends `complete`), instead of holding its connection open until the
   * grace period runs out; then the feed stops polling and listening.
   */
  close() {
    this.closed = true;
    for (const stream of [...this.streams]) stream.end();
    this.streams.clear();
    this.unlisten?.();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.listeners.clear();
  }

  private async start() {
    this.unlisten = this.bus.listen((_id, event) => {
      if (event) this.remember(event);
      this.wake();
    });
    const { cutoff, running } = await probeHorizon(this.db);
    await this.settle(running);
    this.position = cutoff;
  }

  private wake() {
    this.dirty = true;
    if (!this.running && this.started) void this.run();
  }

  private async run() {
    this.running = true;
    try {
      while (this.dirty && this.listeners.size > 0) {
        this.dirty = false;
        await this.advance();
      }
    } catch (error) {
      // The periodic poll retries; a broken database must not crash the process.
      this.logger.warn("live event feed could not read the log", { error: String(error) });
    } finally {
      this.running = false;
    }
  }

  private async advance() {
    const { cutoff, running } = await probeHorizon(this.db);
    if (cutoff <= this.position) return;
    await this.settle(running);
    const known = this.committedHereUpTo(cutoff);
    if (known) {
      this.handOut(known);
    } else {
      for (;;) {
        const rows = await eventsAfter(this.db, { after: this.position, upTo: cutoff, take: BATCH });
        this.handOut(rows);
        if (rows.length < BATCH) break;
      }
    }
    this.position = cutoff;
    for (const id of this.committedHere.keys()) if (id <= cutoff) this.committedHere.delete(id);
  }

  private handOut(events: StoredEvent[]) {
    for (const event of events) {
      this.position = event.id;
      for (const listener of this.listeners) listener(event);
    }
    if (this.lagObservers.size === 0) return;
    const now = Date.now();
    for (const event of events) {
      const lag = Math.max(0, now - event.createdAt.getTime()) / 1000;
      for (const observer of this.lagObservers) observer(lag);
    }
  }

  private remember(event: StoredEvent) {
    if (this.listeners.size === 0 || event.id <= this.position || this.committedHere.size >= BATCH) return;
    this.committedHere.set(event.id, event);
  }

  /** The events in (position, cutoff] in id order, if this node committed every one of them. */
  private committedHereUpTo(cutoff: bigint): StoredEvent[] | null {
    if (cutoff - this.position > BigInt(this.committedHere.size)) return null;
    const events: StoredEvent[] = [];
    for (let id = this.position + 1n; id <= cutoff; id++) {
      const event = this.committedHere.get(id);
      if (!event) return null;
      events.push(event);
    }
    return events;
  }

  /** Waits until the transactions that were running at the horizon probe have ended. */
  private async settle(running: string[]) {
    this.holdingBack = running.length > 0;
    try {
      await waitForTransactionsToEnd(this.db, running);
    } finally {
      this.holdingBack = false;
    }
  }
}
