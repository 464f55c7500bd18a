import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../../db/database.ts";
import type { Principal } from "./principal.ts";

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

/**
 * Resolves a secret to the principal it stands for, or null when it is unknown, expired or
 * belongs to a deleted user. Never logs or returns the secret.
 */
export async function resolveToken(db: Db, secret: string, now = new Date()): Promise<Principal | null> {
  const secretHash = hashSecret(secret);
  if (secret.startsWith("user:")) {
    const pat = await db.personalAccessToken.findUnique({ where: { secretHash }, include: { user: true } });
    if (!pat || pat.expiresAt <= now || pat.user.deletedAt) return null;
    return {
      kind: "user",
      name: pat.user.username ?? pat.user.email ?? `user-${pat.user.id}`,
      userId: pat.user.id,
      rootRole: pat.user.rootRole as Principal["rootRole"],
      projects: ["*"],
      environment: "*",
    };
  }
  const token = await db.apiToken.findUnique({ where: { secretHash } });
  if (!token || (token.expiresAt && token.expiresAt <= now)) return null;
  const kind =
    token.type === "admin" ? "admin-token" : token.type === "frontend" ? "frontend-token" : "client-token";
  return {
    kind,
    name: token.tokenName,
    userId: null,
    rootRole: token.type === "admin" ? "Admin" : null,
    projects: token.projects,
    environment: token.environment,
  };
}
