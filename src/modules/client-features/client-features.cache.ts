import { LRUCache } from "lru-cache";
import type { AppDeps } from "../../context.ts";
import type { ClientFeaturesState } from "../evaluation/client-features.types.ts";
import { type CompiledState, compileState } from "../evaluation/engine.logic.ts";
import {
  type ClientScope,
  forSdks,
  readScopeConfiguration,
  type ScopeConfiguration,
  scopeKey,
} from "./client-features.read.ts";

/**
 * One version of a scope's configuration. A snapshot is never changed: a read that finds the
 * same content (readScopeConfiguration's version) keeps the snapshot it had, so what is built
 * from one (documents, evaluated answers, stream deltas, compiled states) is built once per
 * version, however many events came between.
 */
export type ClientSnapshot = {
  scope: ClientScope;
  /** `scopeKey(scope)`, worked out once. */
  scopeKey: string;
  /** The content's hash: equal versions, equal configurations, on every node. */
  version: string;
  /**
   * A number this node gives each version it reads, in the order it reads them: a scope's later
   * versions have higher generations (SDK streams send it as the event id).
   */
  generation: number;
  /** Estimated bytes the snapshot holds once both states are compiled (its cache's measure). */
  bytes: number;
  /** Everything, disabled strategies included (the playground explains them). */
  state: ClientFeaturesState;
  /** What SDKs are served (see forSdks). */
  sdkState: ClientFeaturesState;
  /** The engine's form of `state`, compiled on first use. */
  compiled(): CompiledState;
  /** The engine's form of `sdkState` (what an SDK evaluates), compiled on first use. */
  sdkCompiled(): CompiledState;
};

/** What the cache holds and has done, for /metrics and tests. */
export type ClientFeaturesStats = {
  scopes: number;
  bytes: number;
  maxBytes: number;
  /** Reads of a scope's configuration from the database. */
  reads: number;
  /** Reads that found a new version (the others kept their snapshot). */
  versions: number;
};

export type ClientFeaturesCache = {
  /** The scope's snapshot: from memory while no change was noticed, else read again once. */
  snapshot(scope: ClientScope): Promise<ClientSnapshot>;
  /** Called (once per notice burst, after the current task) when snapshots went stale. */
  onStale(listener: () => void): () => void;
  stats(): ClientFeaturesStats;
  /** Stops listening to the bus. */
  close(): void;
};

/** A snapshot older than this is read again even without a notice (a notice may be lost). */
const MAX_AGE_MS = 60_000;
/** Scopes kept at most, whatever their size (tokens' scopes are few; playground requests add more). */
const MAX_SCOPES = 200;
/**
 * Heap bytes a snapshot takes per character of its records' JSON: the mapped state, the SDK
 * state and both compiled forms (measured on the benchmark's 10,000 flags: ~29 MB for ~9.6 M
 * characters).
 */
const BYTES_PER_RECORD_CHARACTER = 3;

/** A scope's snapshot as last confirmed: by a read started after `notices` notices, at `at` (ms). */
type Held = { snapshot: ClientSnapshot; notices: number; at: number };

/**
 * The app's one cache of client configurations: every committed event noticed on the bus, from
 * this node or another, makes every scope stale; the next reader reads it again, concurrent
 * readers share that read, and a read that finds the version it had keeps its snapshot. At most
 * MAX_SCOPES scopes and `maxBytes` (estimated) are kept, the least recently read going first; a
 * scope larger than `maxBytes` is kept alone.
 */
export function createClientFeaturesCache(
  deps: Pick<AppDeps, "db" | "bus" | "now">,
  maxBytes: number,
): ClientFeaturesCache {
  const held = new LRUCache<string, Held>({
    max: MAX_SCOPES,
    maxSize: maxBytes,
    sizeCalculation: (h) => Math.max(1, Math.min(h.snapshot.bytes, maxBytes)),
  });
  /** Reads under way, per scope (one at a time: a read started before a newer notice finishes first). */
  const pending = new Map<string, { notices: number; promise: Promise<ClientSnapshot> }>();
  const listeners = new Set<() => void>();
  /** Committed-event notices heard: a snapshot confirmed before the last one is stale. */
  let notices = 0;
  let generations = 0;
  let announced = false;
  let reads = 0;
  let versions = 0;

  const unlisten = deps.bus.listen(() => {
    notices++;
    if (announced) return;
    announced = true;
    // One announcement for a burst of notices (a bulk change records many events at once).
    setImmediate(() => {
      announced = false;
      for (const listener of listeners) listener();
    });
  });

  const read = async (key: string, scope: ClientScope, at: number): Promise<ClientSnapshot> => {
    const readAt = Date.now();
    reads++;
    const configuration = await readScopeConfiguration(deps.db, scope);
    const before = held.peek(key);
    let snapshot = before?.snapshot;
    if (snapshot?.version !== configuration.version) {
      versions++;
      snapshot = snapshotOf(scope, key, configuration, ++generations);
    }
    if (!before || before.notices <= at) held.set(key, { snapshot, notices: at, at: readAt });
    return snapshot;
  };

  return {
    snapshot(scope) {
      const key = scopeKey(scope);
      const now = held.get(key);
      if (now && now.notices === notices && Date.now() - now.at < MAX_AGE_MS) {
        return Promise.resolve(now.snapshot);
      }
      const under = pending.get(key);
      if (under?.notices === notices) return under.promise;
      const at = notices;
      const before = under?.promise.catch(() => undefined) ?? Promise.resolve();
      const promise = before
        .then(() => read(key, scope, at))
        .finally(() => {
          if (pending.get(key)?.promise === promise) pending.delete(key);
        });
      pending.set(key, { notices: at, promise });
      return promise;
    },
    onStale(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stats: () => ({ scopes: held.size, bytes: held.calculatedSize, maxBytes, reads, versions }),
    close: unlisten,
  };
}

function snapshotOf(
  scope: ClientScope,
  key: string,
  { state, version, textLength }: ScopeConfiguration,
  generation: number,
): ClientSnapshot {
  const sdkState = forSdks(state);
  let compiled: CompiledState | undefined;
  let sdkCompiled: CompiledState | undefined;
  return {
    scope,
    scopeKey: key,
    version,
    generation,
    bytes: textLength * BYTES_PER_RECORD_CHARACTER,
    state,
    sdkState,
    compiled: () => {
      compiled ??= compileState(state);
      return compiled;
    },
    sdkCompiled: () => {
      sdkCompiled ??= compileState(sdkState);
      return sdkCompiled;
    },
  };
}
