import { createHash, randomBytes } from "node:crypto";
import type { AppDeps } from "../../context.ts";
import type { Db } from "../../db/database.ts";
import type { EventBus } from "../../events/bus.ts";
import { USER_WITH_GRANTS, type UserWithGrants, userPrincipal } from "./grants.logic.ts";
import type { Principal } from "./principal.types.ts";

/** Tokens are high-entropy secrets, so a fast hash is enough (passwords use scrypt). */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** Unleash's secret format: `<project>:<environment>.<56 hex chars>`. */
export function newApiTokenSecret(project: string, environment: string): string {
  return `${project}:${environment}.${randomBytes(28).toString("hex")}`;
}

export function newPersonalTokenSecret(): string {
  return `user:${randomBytes(28).toString("hex")}`;
}

/** Reads the credential from an `Authorization` value, accepting an optional `Bearer ` prefix. */
export function tokenFromHeader(header: string | null | undefined): string | null {
  const value = header?.trim();
  if (!value) return null;
  return value.replace(/^Bearer\s+/i, "").trim() || null;
}

/** `seenAt` is written at most once a minute per credential, so reads stay reads. */
const SEEN_RESOLUTION_MS = 60_000;

export function isStale(seenAt: Date | null, now: Date): boolean {
  return !seenAt || now.getTime() - seenAt.getTime() >= SEEN_RESOLUTION_MS;
}

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

/**
 * Resolves a secret to the principal it stands for, or null when it is unknown, expired or
 * belongs to a deleted user. Records when the credential was last used. Never logs or
 * returns the secret.
 */
export async function resolveToken(db: Db, secret: string, now = new Date()): Promise<Principal | null> {
  const secretHash = hashSecret(secret);
  if (secret.startsWith("user:")) {
    const [pat] = await db.$queryRaw<
      (UserWithGrants & { tokenId: number; tokenExpiresAt: Date; tokenSeenAt: Date | null })[]
    >`
      SELECT t.id AS "tokenId", t."expiresAt" AS "tokenExpiresAt", t."seenAt" AS "tokenSeenAt", ${USER_WITH_GRANTS}
      FROM "PersonalAccessToken" t JOIN "User" u ON u.id = t."userId" WHERE t."secretHash" = ${secretHash}`;
    if (!pat || pat.tokenExpiresAt <= now || pat.deletedAt) return null;
    if (isStale(pat.tokenSeenAt, now)) {
      await db.personalAccessToken.update({ where: { id: pat.tokenId }, data: { seenAt: now } });
    }
    return userPrincipal(pat, "pat");
  }
  // findFirst on the unique hash: findUnique goes through Prisma's batching, which costs a
  // millisecond of CPU on a path every request takes.
  const token = await db.apiToken.findFirst({ where: { secretHash } });
  if (!token || (token.expiresAt && token.expiresAt <= now)) return null;
  if (isStale(token.seenAt, now)) {
    await db.apiToken.update({ where: { id: token.id }, data: { seenAt: now } });
  }
  const kind =
    token.type === "admin" ? "admin-token" : token.type === "frontend" ? "frontend-token" : "client-token";
  return {
    kind,
    via: "api-token",
    name: token.tokenName,
    userId: null,
    tokenId: token.id,
    rootRole: token.type === "admin" ? "Admin" : null,
    projects: token.projects,
    environment: token.environment,
    grants: token.type === "admin" ? [{ permission: "ADMIN", project: null, environment: null }] : [],
    expiresAt: token.expiresAt,
  };
}
