import type { Config } from "../../config.ts";
import type { AppDeps, AppScope } from "../../context.ts";
import { requestIdOf } from "../../http/request-log.ts";
import { errorResponse } from "../../shared/error-response.ts";
import type { ClientFeaturesCache, ClientSnapshot } from "../client-features/client-features.cache.ts";
import { type ClientScope, scopeKey } from "../client-features/client-features.read.ts";
import type { SdkCaller } from "../client-features/sdk-credential.write.ts";
import type { SdkDocuments } from "../client-features/sdk-documents.cache.ts";
import type { ClientFeature, DeltaEvent } from "../evaluation/client-features.types.ts";
import { onExpiry } from "../live/expiry.live.ts";
import type { EventFeed } from "../live/feed.live.ts";
import { apiTokenInForce } from "../tokens/api-tokens.read.ts";

/** Well inside the SDK's 60 s read timeout (unleash-client's streaming fetcher). */
const KEEP_ALIVE_MS = 25_000;
const TOKEN_EVENTS = new Set(["api-token-deleted", "api-token-updated"]);
/**
 * Messages a stream may have waiting for its client to read before it is ended: a client that
 * stops reading must not hold every later message in memory. The SDK reconnects and is hydrated.
 */
const MAX_QUEUED_MESSAGES = 64;
const encoder = new TextEncoder();
const KEEP_ALIVE = encoder.encode(": keep-alive\n\n");
const MESSAGE_END = encoder.encode("\n\n");

/**
 * `GET /api/client/streaming`, as unleash-client's streaming mode reads it: server-sent events,
 * first `unleash-connected` with a hydration (the whole configuration of the token's scope),
 * then `unleash-updated` with the flags and segments that changed, after every committed change
 * on any node (the live feed wakes it). Each message's `id` is the configuration's generation.
 * The stream ends at shutdown (the feed ends), when its token is deleted (or found expired
 * when a token changes), when its token expires, and when its client stops reading; the SDK then
 * reconnects, and a deleted or expired token gets its 401. Open streams are capped per token and
 * per node (VEXIL_STREAMS_PER_TOKEN, VEXIL_STREAMS_PER_NODE): one more is a 429 with Retry-After.
 */
export function streamingResponse(deps: AppScope, caller: SdkCaller, request: Request): Response {
  const body = deps.services.sdkStreams.open(caller);
  if (typeof body === "string") return refusedStream(body, request);
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    },
  });
}

/**
 * The node's open SDK streams (services.sdkStreams). One listener on the live feed serves them
 * all: after each change it reads each scope's configuration once, and each message (the delta
 * from what a stream was last sent to the new configuration) is serialised and encoded once and
 * the same bytes are written to every stream it is for, so a change reaching 10,000 streams costs
 * one delta and 10,000 writes. A stream holds only what it was last sent (a snapshot shared with
 * the other streams of its scope) and its place in the queue of its response.
 */
export type SdkStreams = {
  /** The body of a new stream for `caller`, or the limit used up. */
  open(caller: SdkCaller): ReadableStream<Uint8Array> | "token" | "node";
  /** Streams open on this node. */
  readonly size: number;
};

type Stream = {
  controller: ReadableStreamDefaultController<Uint8Array>;
  /** Its scope's key (scopeKey): the streams of one scope get the same messages. */
  key: string;
  /** The configuration this stream's client has (hydration plus every update sent). */
  sent: ClientSnapshot | null;
  tokenId: number | null;
  release: () => void;
  stopExpiry: (() => void) | null;
  ended: boolean;
};

type ScopeStreams = { scope: ClientScope; streams: Set<Stream> };

export function createSdkStreams(
  deps: Pick<AppDeps, "db" | "now" | "logger"> & {
    feed: EventFeed;
    clientFeatures: ClientFeaturesCache;
    sdkDocuments: SdkDocuments;
    limits: Config["http"]["maxStreams"];
  },
): SdkStreams {
  const slots = createStreamSlots(deps.limits);
  const scopes = new Map<string, ScopeStreams>();
  let size = 0;
  let closed = false;
  let detach: (() => void) | null = null;
  let keepAlive: NodeJS.Timeout | null = null;
  let running = false;
  let dirty = false;
  let tokensChanged = false;

  // Shutdown closes the feed, which ends every stream (and any opened afterwards at once).
  deps.feed.track({
    end() {
      closed = true;
      for (const { streams } of [...scopes.values()]) for (const stream of [...streams]) end(stream);
    },
  });

  function write(stream: Stream, bytes: Uint8Array) {
    if ((stream.controller.desiredSize ?? 0) < -MAX_QUEUED_MESSAGES) return end(stream);
    stream.controller.enqueue(bytes);
  }

  /** Sends `stream` what changed from what it has to `next` (nothing when it has `next` or newer). */
  function advance(stream: Stream, next: ClientSnapshot) {
    const sent = stream.sent;
    if (stream.ended || !sent || next.generation <= sent.generation) return;
    stream.sent = next;
    const bytes = updateMessage(sent, next);
    if (bytes) write(stream, bytes);
  }

  /** Forgets `stream` (its client left, or it ended); false when it already was. */
  function leave(stream: Stream) {
    if (stream.ended) return false;
    stream.ended = true;
    stream.release();
    stream.stopExpiry?.();
    const group = scopes.get(stream.key);
    if (group?.streams.delete(stream)) size -= 1;
    if (group?.streams.size === 0) scopes.delete(stream.key);
    if (size === 0) idle();
    return true;
  }

  /** Ends `stream` from the server's side: its response ends, the client reconnects. */
  function end(stream: Stream) {
    if (leave(stream)) stream.controller.close();
  }

  /** Nobody listens any more: the feed may idle, no keep-alives. */
  function idle() {
    detach?.();
    detach = null;
    if (keepAlive) clearInterval(keepAlive);
    keepAlive = null;
  }

  function listen() {
    if (detach || closed) return;
    keepAlive ??= setInterval(() => {
      for (const { streams } of scopes.values()) for (const stream of streams) write(stream, KEEP_ALIVE);
    }, KEEP_ALIVE_MS).unref();
    void deps.feed.ready().then(() => {
      if (detach || closed || size === 0) return;
      detach = deps.feed.attach((event) => {
        if (TOKEN_EVENTS.has(event.type)) tokensChanged = true;
        wake();
      });
      // Changes committed before the listener was attached: a pass catches every stream up.
      wake();
    });
  }

  function wake() {
    dirty = true;
    if (!running) void run();
  }

  async function run() {
    running = true;
    try {
      while (dirty && size > 0) {
        dirty = false;
        await pass();
      }
    } finally {
      running = false;
    }
  }

  /** Brings every stream to its scope's newest configuration; first ends those whose token is gone. */
  async function pass() {
    if (tokensChanged) {
      tokensChanged = false;
      await endRevoked();
    }
    await Promise.all(
      [...scopes.values()].map(async ({ scope, streams }) => {
        try {
          const next = await deps.clientFeatures.snapshot(scope);
          for (const stream of streams) advance(stream, next);
        } catch (error) {
          // The streams keep what they have; the next change (or a reconnect) catches them up.
          deps.logger.warn("client streams not updated", { error: String(error) });
        }
      }),
    );
  }

  /** Ends the streams of tokens deleted or expired: one read per token, however many streams it has. */
  async function endRevoked() {
    const byToken = new Map<number, Stream[]>();
    for (const { streams } of scopes.values()) {
      for (const stream of streams) {
        if (stream.tokenId === null) continue;
        const ofToken = byToken.get(stream.tokenId);
        if (ofToken) ofToken.push(stream);
        else byToken.set(stream.tokenId, [stream]);
      }
    }
    for (const [tokenId, streams] of byToken) {
      if (await apiTokenInForce(deps.db, tokenId, deps.now())) continue;
      for (const stream of streams) end(stream);
    }
  }

  /** Hydrates a new stream, then adds it to its scope's streams and catches it up. */
  async function hydrate(stream: Stream, scope: ClientScope) {
    try {
      const snapshot = await deps.clientFeatures.snapshot(scope);
      if (stream.ended) return;
      for (const part of hydrationMessage(deps.sdkDocuments, snapshot)) stream.controller.enqueue(part);
      stream.sent = snapshot;
      if (closed) return end(stream);
      let group = scopes.get(stream.key);
      if (!group) {
        group = { scope, streams: new Set() };
        scopes.set(stream.key, group);
      }
      group.streams.add(stream);
      size += 1;
      listen();
      // A change committed while it was hydrated.
      advance(stream, await deps.clientFeatures.snapshot(scope));
    } catch (error) {
      deps.logger.warn("client stream ended by an error", { error: String(error) });
      end(stream);
    }
  }

  return {
    get size() {
      return size;
    },
    open(caller) {
      const release = slots.admit(caller);
      if (typeof release !== "function") return release;
      let stream: Stream | undefined;
      return new ReadableStream<Uint8Array>({
        start(controller) {
          const { tokenId, expiresAt } = caller.principal;
          const opened: Stream = {
            controller,
            key: scopeKey(caller.scope),
            sent: null,
            tokenId,
            release,
            stopExpiry: null,
            ended: false,
          };
          if (expiresAt) opened.stopExpiry = onExpiry(deps.now, expiresAt, () => end(opened));
          stream = opened;
          void hydrate(opened, caller.scope);
        },
        cancel() {
          if (stream) leave(stream);
        },
      });
    },
  };
}

/**
 * The app's open SDK streams, in all and per API token: a stream takes a slot for its token, or
 * is refused when a limit (config.http.maxStreams) is used up.
 */
type StreamSlots = {
  /** The function that gives the slot back (once, however the stream ends), or the limit used up. */
  admit(caller: SdkCaller): (() => void) | "token" | "node";
};

/** When a refused SDK may try again: streams last long, a slot frees slowly. */
const RETRY_AFTER_SECONDS = 60;

function createStreamSlots(limits: Config["http"]["maxStreams"]): StreamSlots {
  let total = 0;
  const byToken = new Map<string, number>();
  return {
    admit(caller) {
      const token = String(caller.principal.tokenId ?? caller.principal.name);
      const ofToken = byToken.get(token) ?? 0;
      if (ofToken >= limits.perToken) return "token";
      if (total >= limits.perNode) return "node";
      total += 1;
      byToken.set(token, ofToken + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        total -= 1;
        const left = (byToken.get(token) ?? 1) - 1;
        if (left > 0) byToken.set(token, left);
        else byToken.delete(token);
      };
    },
  };
}

/** 429 in the REST error shape, with Retry-After, naming the limit. */
function refusedStream(limit: "token" | "node", request: Request): Response {
  const message =
    limit === "token"
      ? "Too many open streams for this API token on this node; close one or retry later."
      : "Too many open streams on this node; retry later.";
  const response = errorResponse(429, "RateLimitError", message, {}, requestIdOf(request));
  response.headers.set("retry-after", String(RETRY_AFTER_SECONDS));
  return response;
}

function message(event: string, id: number, events: DeltaEvent[]): Uint8Array {
  return encoder.encode(`event: ${event}\nid: ${id}\ndata: ${JSON.stringify({ events })}\n\n`);
}

/**
 * `unleash-connected` with the hydration of a version: its JSON is one of the version's SDK
 * documents (serialised once, however many streams connect, and kept while the documents' cache
 * keeps it), then framed: the same three byte arrays for every stream it hydrates.
 */
function hydrationMessage(documents: SdkDocuments, snapshot: ClientSnapshot): Uint8Array[] {
  const events = documents.of(snapshot, "stream-hydration", "", () => ({
    events: [
      {
        eventId: snapshot.generation,
        type: "hydration",
        features: snapshot.sdkState.features,
        segments: snapshot.sdkState.segments ?? [],
      } satisfies DeltaEvent,
    ],
  }));
  let head = heads.get(snapshot);
  if (!head) {
    head = encoder.encode(`event: unleash-connected\nid: ${snapshot.generation}\ndata: `);
    heads.set(snapshot, head);
  }
  return [head, events.json, MESSAGE_END];
}

const heads = new WeakMap<ClientSnapshot, Uint8Array>();

const updates = new WeakMap<ClientSnapshot, WeakMap<ClientSnapshot, Uint8Array | null>>();
/**
 * The `unleash-updated` message from one snapshot to the next (null when nothing an SDK sees
 * changed), encoded once per pair: every stream that had `before` gets the same bytes.
 */
function updateMessage(before: ClientSnapshot, after: ClientSnapshot): Uint8Array | null {
  let fromBefore = updates.get(after);
  if (!fromBefore) {
    fromBefore = new WeakMap();
    updates.set(after, fromBefore);
  }
  let bytes = fromBefore.get(before);
  if (bytes === undefined) {
    const events = computeDelta(before, after);
    bytes = events.length > 0 ? message("unleash-updated", after.generation, events) : null;
    fromBefore.set(before, bytes);
  }
  return bytes;
}

const serialized = new WeakMap<ClientSnapshot, Map<string, string>>();

/** Each flag of a snapshot as JSON, once per snapshot (streams of one scope share it). */
function serializedFlags(snapshot: ClientSnapshot): Map<string, string> {
  let flags = serialized.get(snapshot);
  if (!flags) {
    flags = new Map(snapshot.sdkState.features.map((f) => [f.name, JSON.stringify(f)]));
    serialized.set(snapshot, flags);
  }
  return flags;
}

function computeDelta(before: ClientSnapshot, after: ClientSnapshot): DeltaEvent[] {
  const eventId = after.generation;
  const old = serializedFlags(before);
  const now = serializedFlags(after);
  const events: DeltaEvent[] = [];
  const oldSegments = new Map((before.sdkState.segments ?? []).map((s) => [s.id, JSON.stringify(s)]));
  for (const segment of after.sdkState.segments ?? []) {
    if (oldSegments.get(segment.id) !== JSON.stringify(segment)) {
      events.push({ eventId, type: "segment-updated", segment });
    }
  }
  for (const feature of after.sdkState.features) {
    if (old.get(feature.name) !== now.get(feature.name)) {
      events.push({ eventId, type: "feature-updated", feature: feature as ClientFeature });
    }
  }
  for (const [name] of old) {
    if (!now.has(name)) events.push({ eventId, type: "feature-removed", featureName: name });
  }
  const kept = new Set((after.sdkState.segments ?? []).map((s) => s.id));
  for (const id of oldSegments.keys()) {
    if (!kept.has(id)) events.push({ eventId, type: "segment-removed", segmentId: id });
  }
  return events;
}
