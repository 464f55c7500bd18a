import { LRUCache } from "lru-cache";
import type { AppDeps } from "../../context.ts";
import { hashSecret, isStale, resolveToken } from "./credentials.write.ts";
import type { Principal } from "./principal.types.ts";

/** How long a resolved API token is trusted without asking the database again. */
const TOKEN_TTL_MS = 60_000;
/** API tokens remembered per app (unknown secrets are never remembered). */
const MAX_TOKENS = 10_000;
type RememberedToken = { principal: Principal; seenAt: Date };

/**
 * `resolveToken` for the requests of API tokens (admin, client, frontend): a token is resolved
 * once and remembered for at most a minute, so SDK polls and scripts cost no credential read.
 * A notice of an `api-token-*` event (a token deleted or changed, on any node) or a resync
 * forgets every remembered token; expiry is checked on each use, and "last seen" is still
 * written at most once a minute. Personal access tokens carry their user's roles and are
 * resolved every time. The least recently used token is forgotten first.
 */
export type RememberedTokens = {
  /** Who the secret stands for (null: unknown, expired or refused). */
  resolve(secret: string): Promise<Principal | null>;
  /** Stops listening to the bus. */
  close(): void;
};

export function createRememberedTokens(deps: Pick<AppDeps, "db" | "bus" | "now">): RememberedTokens {
  const remembered = new LRUCache<string, RememberedToken>({ max: MAX_TOKENS, ttl: TOKEN_TTL_MS });
  const unlisten = deps.bus.listen((_id, _event, rememberedChanged) => {
    if (rememberedChanged) remembered.clear();
  });
  return {
    async resolve(secret) {
      if (secret.startsWith("user:")) return resolveToken(deps.db, secret, deps.now());
      const key = hashSecret(secret);
      const now = deps.now();
      const hit = remembered.get(key);
      if (hit) {
        if (hit.principal.expiresAt && hit.principal.expiresAt <= now) return null;
        if (isStale(hit.seenAt, now)) {
          hit.seenAt = now;
          await deps.db.apiToken.updateMany({
            where: { id: hit.principal.tokenId as number },
            data: { seenAt: now },
          });
        }
        return hit.principal;
      }
      const principal = await resolveToken(deps.db, secret, now);
      if (!principal) {
        remembered.delete(key);
        return null;
      }
      remembered.set(key, { principal, seenAt: now });
      return principal;
    },
    close: unlisten,
  };
}
