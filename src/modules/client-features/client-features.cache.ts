import { LRUCache } from "lru-cache";
import type { AppDeps } from "../../context.ts";
import type { ClientFeaturesState } from "../evaluation/client-features.types.ts";
import { type CompiledState, compileState } from "../evaluation/engine.logic.ts";
import { type ClientScope, forSdks, readClientState, scopeKey } from "./client-features.read.ts";

/** One scope's configuration as read after the newest change this node knows of. */
export type ClientSnapshot = {
  scope: ClientScope;
  /** Bumped by every committed-event notice; equal generations saw the same changes. */
  generation: number;
  builtAt: number;
  /** Everything, disabled strategies included (the playground explains them). */
  state: ClientFeaturesState;
  /** What SDKs are served (see forSdks). */
  sdkState: ClientFeaturesState;
  /** The engine's form of `state`, compiled on first use. */
  compiled(): CompiledState;
  /** The engine's form of `sdkState` (what an SDK evaluates), compiled on first use. */
  sdkCompiled(): CompiledState;
};

export type ClientFeaturesCache = {
  /** The scope's snapshot: from memory while no change was noticed, else read again once. */
  snapshot(scope: ClientScope): Promise<ClientSnapshot>;
  /** Called (once per notice burst, after the current task) when snapshots went stale. */
  onStale(listener: () => void): () => void;
  /** Stops listening to the bus. */
  close(): void;
};

/** A snapshot older than this is read again even without a notice (a notice may be lost). */
const MAX_AGE_MS = 60_000;
/** Scopes kept in memory (tokens' scopes are few; playground requests add more). */
const MAX_SCOPES = 200;

type Entry = {
  built?: ClientSnapshot;
  pending?: { generation: number; promise: Promise<ClientSnapshot> };
};

/**
 * The app's one cache of client configurations: every committed event noticed on the bus, from
 * this node or another, makes every scope stale; the next reader reads it again, concurrent
 * readers share that read. The least recently read scope is forgotten first.
 */
export function createClientFeaturesCache(deps: Pick<AppDeps, "db" | "bus" | "now">): ClientFeaturesCache {
  const entries = new LRUCache<string, Entry>({ max: MAX_SCOPES });
  const listeners = new Set<() => void>();
  let generation = 0;
  let announced = false;

  const unlisten = deps.bus.listen(() => {
    generation++;
    if (announced) return;
    announced = true;
    // One announcement for a burst of notices (a bulk change records many events at once).
    setImmediate(() => {
      announced = false;
      for (const listener of listeners) listener();
    });
  });

  const entryFor = (key: string): Entry => {
    let entry = entries.get(key);
    if (!entry) {
      entry = {};
      entries.set(key, entry);
    }
    return entry;
  };

  const fresh = (s: ClientSnapshot | undefined): s is ClientSnapshot =>
    s !== undefined && s.generation === generation && Date.now() - s.builtAt < MAX_AGE_MS;

  return {
    snapshot(scope) {
      const entry = entryFor(scopeKey(scope));
      if (fresh(entry.built)) return Promise.resolve(entry.built);
      if (entry.pending?.generation === generation) return entry.pending.promise;
      const at = generation;
      // One read at a time per scope: a read for an older generation finishes first.
      const before = entry.pending?.promise.catch(() => undefined) ?? Promise.resolve();
      const promise = before
        .then(() => buildSnapshot(deps, scope, at))
        .then((snapshot) => {
          if (!entry.built || entry.built.generation <= at) entry.built = snapshot;
          return snapshot;
        })
        .finally(() => {
          if (entry.pending?.promise === promise) entry.pending = undefined;
        });
      entry.pending = { generation: at, promise };
      return promise;
    },
    onStale(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: unlisten,
  };
}

async function buildSnapshot(
  deps: Pick<AppDeps, "db">,
  scope: ClientScope,
  generation: number,
): Promise<ClientSnapshot> {
  const builtAt = Date.now();
  const state = await readClientState(deps.db, scope);
  const sdkState = forSdks(state);
  let compiled: CompiledState | undefined;
  let sdkCompiled: CompiledState | undefined;
  return {
    scope,
    generation,
    builtAt,
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
