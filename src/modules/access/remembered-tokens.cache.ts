import type { AppDeps } from "../../context.ts";
import type { EventBus } from "../../events/bus.ts";
import { hashSecret, isStale, resolveToken } from "./credentials.write.ts";
import type { Principal } from "./principal.types.ts";

/** How long a resolved API token is trusted without asking the database again. */
const TOKEN_TTL_MS = 60_000;
/** API tokens remembered per app (unknown secrets are never remembered). */
const MAX_TOKENS = 10_000;
type RememberedToken = { principal: Principal; until: number; seenAt: Date };
const rememberedTokens = new WeakMap<object, Map<string, RememberedToken>>();

/**
 * `resolveToken` for the requests of API tokens (admin, client, frontend): a token is resolved
 * once and remembered for at most a minute, so SDK polls and scripts cost no credential read.
 * A notice of an `api-token-*` event (a token deleted or changed, on any node) or a resync
 * forgets every remembered token; expiry is checked on each use, and "last seen" is still written at
 * most once a minute. Personal access tokens carry their user's roles and are resolved every
 * time.
 */
export async function rememberedToken(
  deps: Pick<AppDeps, "db" | "bus" | "now">,
  secret: string,
): Promise<Principal | null> {
  if (secret.startsWith("user:")) return resolveToken(deps.db, secret, deps.now());
  const remembered = rememberedTokensOf(deps.bus);
  const key = hashSecret(secret);
  const now = deps.now();
  const hit = remembered.get(key);
  if (hit && hit.until > Date.now()) {
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
  if (remembered.size >= MAX_TOKENS) remembered.delete(remembered.keys().next().value as string);
  remembered.set(key, { principal, until: Date.now() + TOKEN_TTL_MS, seenAt: now });
  return principal;
}

function rememberedTokensOf(bus: EventBus): Map<string, RememberedToken> {
  let remembered = rememberedTokens.get(bus);
  if (!remembered) {
    const created = new Map<string, RememberedToken>();
    bus.listen((_id, _event, rememberedChanged) => {
      if (rememberedChanged) created.clear();
    });
    rememberedTokens.set(bus, created);
    remembered = created;
  }
  return remembered;
}
