import type { AppDeps } from "../../context.ts";
import { hashSecret, resolveToken } from "./credentials.ts";
import type { Principal } from "./principal.ts";

/**
 * API tokens resolved in the last TTL_MS, per app. SDKs call several times per second per
 * instance (metrics, polls), and resolving a token costs a statement and ~0.6 ms of CPU
 * (docs/performance.md, "SDK metrics ingestion"). Any committed event noticed on the bus (any
 * node) clears the cache, so a deleted or changed token is refused at once on the node that
 * changed it and on the others as soon as the notice arrives; TTL_MS bounds a lost notice.
 * Only valid API tokens are kept (unknown secrets and personal access tokens are not).
 */
const TTL_MS = 1000;
const MAX_ENTRIES = 10_000;

type Entry = { principal: Principal; at: number };
const caches = new WeakMap<object, Map<string, Entry>>();

function cacheOf(deps: Pick<AppDeps, "bus">): Map<string, Entry> {
  let cache = caches.get(deps.bus);
  if (!cache) {
    const created = new Map<string, Entry>();
    deps.bus.listen(() => created.clear());
    caches.set(deps.bus, created);
    cache = created;
  }
  return cache;
}

/** resolveToken, answered from memory for an API token seen in the last second. */
export async function resolveTokenCached(
  deps: Pick<AppDeps, "db" | "bus">,
  secret: string,
  now: Date,
): Promise<Principal | null> {
  if (secret.startsWith("user:")) return resolveToken(deps.db, secret, now);
  const cache = cacheOf(deps);
  const key = hashSecret(secret);
  const hit = cache.get(key);
  const age = hit ? now.getTime() - hit.at : -1;
  if (hit && age >= 0 && age < TTL_MS) return hit.principal;
  const principal = await resolveToken(deps.db, secret, now);
  if (principal?.via === "api-token") {
    if (cache.size >= MAX_ENTRIES) cache.clear();
    cache.set(key, { principal, at: now.getTime() });
  } else {
    cache.delete(key);
  }
  return principal;
}
