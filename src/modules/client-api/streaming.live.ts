import type { Config } from "../../config.ts";
import type { AppScope } from "../../context.ts";
import { requestIdOf } from "../../http/request-log.ts";
import { errorResponse } from "../../shared/error-response.ts";
import type { ClientSnapshot } from "../client-features/client-features.cache.ts";
import type { SdkCaller } from "../client-features/sdk-credential.write.ts";
import type { ClientFeature, DeltaEvent } from "../evaluation/client-features.types.ts";
import { onExpiry } from "../live/expiry.live.ts";
import { followEvents } from "../live/follow.live.ts";
import { apiTokenInForce } from "../tokens/api-tokens.read.ts";

/** Well inside the SDK's 60 s read timeout (unleash-client's streaming fetcher). */
const KEEP_ALIVE_MS = 25_000;
const TOKEN_EVENTS = new Set(["api-token-deleted", "api-token-updated"]);

/**
 * `GET /api/client/streaming`, as unleash-client's streaming mode reads it: server-sent events,
 * first `unleash-connected` with a hydration (the whole configuration of the token's scope),
 * then `unleash-updated` with the flags and segments that changed, after every committed change
 * on any node (the live feed wakes it). Each message's `id` is the configuration's generation.
 * The stream ends at shutdown (the feed ends), when its token is deleted (or found expired
 * when a token changes) and when its token expires; the SDK then reconnects, and a deleted or
 * expired token gets its 401. Open streams are capped per token and per node
 * (VEXIL_STREAMS_PER_TOKEN, VEXIL_STREAMS_PER_NODE): one more is a 429 with Retry-After.
 */
export function streamingResponse(deps: AppScope, caller: SdkCaller, request: Request): Response {
  const release = deps.services.sdkStreams.admit(caller);
  if (typeof release !== "function") return refusedStream(release, request);
  const cache = deps.services.clientFeatures;
  const changes = followEvents(deps.db, deps.services.feed, { where: {}, accept: () => true });
  let open = true;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (...parts: Uint8Array[]) => {
        for (const part of parts) if (open) controller.enqueue(part);
      };
      const keepAlive = setInterval(() => send(KEEP_ALIVE), KEEP_ALIVE_MS);
      keepAlive.unref();
      const stopExpiry = onExpiry(deps.now, caller.principal.expiresAt, () => void changes.return());
      try {
        let sent = await cache.snapshot(caller.scope);
        send(...hydrationMessage(deps, sent));
        for (;;) {
          const item = await changes.next();
          if (item.done || !open) break;
          if (TOKEN_EVENTS.has(item.value.type) && !(await tokenStillValid(deps, caller))) break;
          const next = await cache.snapshot(caller.scope);
          // The same version (an event that changed nothing of this scope) or an older one.
          if (next.generation <= sent.generation) continue;
          const update = updateMessage(sent, next);
          if (update) send(update);
          sent = next;
        }
      } catch (error) {
        deps.logger.warn("client stream ended by an error", { error: String(error) });
      } finally {
        clearInterval(keepAlive);
        stopExpiry();
        release();
        if (open) {
          open = false;
          controller.close();
        }
      }
    },
    cancel() {
      open = false;
      release();
      void changes.return();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    },
  });
}

/**
 * The app's open SDK streams, in all and per API token: a stream takes a slot for its token, or
 * is refused when a limit (config.http.maxStreams) is used up.
 */
export type StreamSlots = {
  /** The function that gives the slot back (once, however the stream ends), or the limit used up. */
  admit(caller: SdkCaller): (() => void) | "token" | "node";
};

/** When a refused SDK may try again: streams last long, a slot frees slowly. */
const RETRY_AFTER_SECONDS = 60;

export function createStreamSlots(limits: Config["http"]["maxStreams"]): StreamSlots {
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

const encoder = new TextEncoder();
const KEEP_ALIVE = encoder.encode(": keep-alive\n\n");
const MESSAGE_END = encoder.encode("\n\n");

/**
 * `unleash-connected` with the hydration of a version: its JSON is one of the version's SDK
 * documents (serialised once, however many streams connect), framed per stream.
 */
function hydrationMessage(deps: AppScope, snapshot: ClientSnapshot): Uint8Array[] {
  const events = deps.services.sdkDocuments.of(snapshot, "stream-hydration", "", () => ({
    events: [
      {
        eventId: snapshot.generation,
        type: "hydration",
        features: snapshot.sdkState.features,
        segments: snapshot.sdkState.segments ?? [],
      } satisfies DeltaEvent,
    ],
  }));
  const head = encoder.encode(`event: unleash-connected\nid: ${snapshot.generation}\ndata: `);
  return [head, events.json, MESSAGE_END];
}

const serialized = new WeakMap<ClientSnapshot, Map<string, string>>();
const updates = new WeakMap<ClientSnapshot, WeakMap<ClientSnapshot, Uint8Array | null>>();

/**
 * `unleash-updated` from one version to the next (null when nothing SDKs see changed), as bytes
 * made once per pair of versions: every stream of the scope sends the same.
 */
function updateMessage(before: ClientSnapshot, after: ClientSnapshot): Uint8Array | null {
  let fromBefore = updates.get(after);
  if (!fromBefore) {
    fromBefore = new WeakMap();
    updates.set(after, fromBefore);
  }
  let update = fromBefore.get(before);
  if (update === undefined) {
    const events = computeDelta(before, after);
    update =
      events.length === 0
        ? null
        : encoder.encode(
            `event: unleash-updated\nid: ${after.generation}\ndata: ${JSON.stringify({ events })}\n\n`,
          );
    fromBefore.set(before, update);
  }
  return update;
}

/** Each flag of a snapshot as JSON, once per snapshot (streams of one scope share it). */
function serializedFlags(snapshot: ClientSnapshot): Map<string, string> {
  let flags = serialized.get(snapshot);
  if (!flags) {
    flags = new Map(snapshot.sdkState.features.map((f) => [f.name, JSON.stringify(f)]));
    serialized.set(snapshot, flags);
  }
  return flags;
}

/** What changed from one snapshot to the next, as delta events. */
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

async function tokenStillValid(deps: AppScope, caller: SdkCaller): Promise<boolean> {
  const tokenId = caller.principal.tokenId;
  if (tokenId === null) return true;
  return apiTokenInForce(deps.db, tokenId, deps.now());
}
