import type { AppDeps } from "../../context.ts";
import { AuthenticationRequired, ForbiddenOperation } from "../../shared/errors.ts";
import { hashSecret, resolveToken, tokenFromHeader } from "../access/credentials.ts";
import type { Principal } from "../access/principal.ts";
import type { ClientScope } from "./client-features.read.ts";

export type SdkKind = "client-token" | "frontend-token" | "admin-token";

/**
 * The environment an admin token reads where it is accepted (Unleash 8.2's client API): the
 * `environment` query parameter, else Unleash's `default`. An admin token's own scope is `*`.
 */
const ADMIN_DEFAULT_ENVIRONMENT = "default";

/** An application's credential and what it may read. */
export type SdkCaller = { principal: Principal; scope: ClientScope };

/**
 * The one check of SDK-facing endpoints: the request must carry an API token of one of the
 * `accepted` kinds (in `Authorization`, with or without `Bearer `, or in `X-API-Key` as
 * OpenFeature's providers may send it); the answer is its scope, one environment and its
 * projects (an admin token, where accepted: every project of the environment asked for, see
 * ADMIN_DEFAULT_ENVIRONMENT). No credential or an unknown one: AuthenticationRequired (401);
 * another kind of credential (an admin token where not accepted, a user): ForbiddenOperation (403).
 */
export async function sdkCaller(
  deps: AppDeps,
  request: Request,
  accepted: readonly SdkKind[],
): Promise<SdkCaller> {
  const secret = tokenFromHeader(request.headers.get("authorization") ?? request.headers.get("x-api-key"));
  const principal = secret ? await cachedPrincipal(deps, secret) : null;
  if (!principal) throw new AuthenticationRequired();
  if (!accepted.includes(principal.kind as SdkKind)) {
    const kinds = accepted.map((k) => k.replace("-token", "")).join(" or ");
    throw new ForbiddenOperation(`invalid token: expected a ${kinds} token for this endpoint`);
  }
  const projects = principal.projects.includes("*") ? "*" : principal.projects;
  if (principal.kind === "admin-token") {
    const asked = new URL(request.url).searchParams.get("environment");
    return { principal, scope: { environment: asked || ADMIN_DEFAULT_ENVIRONMENT, projects } };
  }
  return { principal, scope: { environment: principal.environment, projects } };
}

/** How long a resolved token is trusted without asking the database again. */
const TOKEN_TTL_MS = 60_000;
/** Tokens remembered per app (unknown secrets are never remembered). */
const MAX_TOKENS = 10_000;
type CachedToken = { principal: Principal; until: number };
const tokenCaches = new WeakMap<object, Map<string, CachedToken>>();

/**
 * SDKs poll several times a minute: their tokens are resolved once and remembered (at most a
 * minute), so a poll that gets a 304 costs no database work. Any committed change noticed on
 * the bus (a token deleted on any node among them) forgets every remembered token; expiry is
 * checked on each use. Sessions and PATs are not SDK credentials and are never looked up here.
 */
async function cachedPrincipal(deps: AppDeps, secret: string): Promise<Principal | null> {
  if (secret.startsWith("user:")) return null;
  const cache = tokenCacheOf(deps);
  const key = hashSecret(secret);
  const now = deps.now();
  const hit = cache.get(key);
  if (hit && hit.until > Date.now()) {
    const expired = hit.principal.expiresAt && hit.principal.expiresAt <= now;
    return expired ? null : hit.principal;
  }
  const principal = await resolveToken(deps.db, secret, now);
  if (!principal) {
    cache.delete(key);
    return null;
  }
  if (cache.size >= MAX_TOKENS) cache.delete(cache.keys().next().value as string);
  cache.set(key, { principal, until: Date.now() + TOKEN_TTL_MS });
  return principal;
}

function tokenCacheOf(deps: AppDeps): Map<string, CachedToken> {
  let cache = tokenCaches.get(deps.bus);
  if (!cache) {
    const created = new Map<string, CachedToken>();
    deps.bus.listen(() => created.clear());
    tokenCaches.set(deps.bus, created);
    cache = created;
  }
  return cache;
}
