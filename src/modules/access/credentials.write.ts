import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../../db/database.ts";
import { sqlOf } from "../../shared/sql.ts";
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

/** `seenAt` is written at most once a minute per credential, so reads stay reads. */
const SEEN_RESOLUTION_MS = 60_000;

export function isStale(seenAt: Date | null, now: Date): boolean {
  return !seenAt || now.getTime() - seenAt.getTime() >= SEEN_RESOLUTION_MS;
}

/**
 * Resolves a secret to the principal it stands for, or null when it is unknown, expired or
 * belongs to a deleted user. Records when the credential was last used. Never logs or
 * returns the secret.
 */
export async function resolveToken(db: Db, secret: string, now = new Date()): Promise<Principal | null> {
  const secretHash = hashSecret(secret);
  if (secret.startsWith("user:")) {
    const [pat] = await sqlOf(db).query<
      UserWithGrants & { tokenId: number; tokenExpiresAt: Date; tokenSeenAt: Date | null }
    >`
      SELECT t.id AS "tokenId", t."expiresAt" AS "tokenExpiresAt", t."seenAt" AS "tokenSeenAt", ${USER_WITH_GRANTS}
      FROM "PersonalAccessToken" t JOIN "User" u ON u.id = t."userId" WHERE t."secretHash" = ${secretHash}`;
    if (!pat || pat.tokenExpiresAt <= now || pat.deletedAt) return null;
    if (isStale(pat.tokenSeenAt, now)) {
      await db.personalAccessToken.update({ where: { id: pat.tokenId }, data: { seenAt: now } });
    }
    return { ...userPrincipal(pat, "pat"), expiresAt: pat.tokenExpiresAt };
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
