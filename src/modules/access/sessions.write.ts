import { randomBytes } from "node:crypto";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/database.ts";
import { ForbiddenOperation } from "../../shared/errors.ts";
import { sqlOf } from "../../shared/sql.ts";
import type { Write } from "../../shared/write.ts";
import { hashSecret, isStale } from "./credentials.write.ts";
import { USER_WITH_GRANTS, type UserWithGrants, userPrincipal } from "./grants.logic.ts";
import type { Principal } from "./principal.types.ts";

/** HttpOnly cookie holding the session secret (the database keeps only its hash). */
export const SESSION_COOKIE = "vexil-session";
/** Readable cookie with the CSRF token, echoed back in the `x-csrf-token` header. */
export const CSRF_COOKIE = "vexil-csrf";
export const CSRF_HEADER = "x-csrf-token";

export type NewSession = { secret: string; csrfToken: string; expiresAt: Date };

/** Opens a session for a user who just proved their password. */
export async function createSession(db: Db, userId: number, now: Date, ttlMs: number): Promise<NewSession> {
  const secret = randomBytes(32).toString("base64url");
  const csrfToken = randomBytes(24).toString("base64url");
  const expiresAt = new Date(now.getTime() + ttlMs);
  await db.userSession.create({ data: { id: hashSecret(secret), userId, csrfToken, expiresAt } });
  return { secret, csrfToken, expiresAt };
}

/** Ends a session; returns whether there was one. */
export async function deleteSession(db: Db, secret: string): Promise<boolean> {
  const { count } = await db.userSession.deleteMany({ where: { id: hashSecret(secret) } });
  return count > 0;
}

type CookieConfig = Pick<Config, "baseUriPath" | "publicUrl" | "auth">;

const cookiePath = (config: CookieConfig) => config.baseUriPath || "/";
const secure = (config: CookieConfig) => (config.publicUrl.startsWith("https:") ? "; Secure" : "");

/**
 * The Set-Cookie values of a new session: the HttpOnly session cookie and the CSRF cookie the
 * page reads (and echoes in `x-csrf-token`), both as long as the session lives.
 */
export function sessionCookies(config: CookieConfig, session: NewSession): string[] {
  const attributes = `Max-Age=${Math.floor(config.auth.sessionTtlMs / 1000)}${secure(config)}`;
  return [
    `${SESSION_COOKIE}=${session.secret}; Path=${cookiePath(config)}; HttpOnly; SameSite=Lax; ${attributes}`,
    `${CSRF_COOKIE}=${session.csrfToken}; Path=${cookiePath(config)}; SameSite=Strict; ${attributes}`,
  ];
}

/** The Set-Cookie values that clear both session cookies (logout). */
export function clearedSessionCookies(config: CookieConfig): string[] {
  return [SESSION_COOKIE, CSRF_COOKIE].map(
    (name) => `${name}=; Path=${cookiePath(config)}; Max-Age=0${secure(config)}`,
  );
}

/**
 * Logs a user out everywhere, in the caller's write: a new password or a deleted user must not
 * leave a session open, nor a stream opened with one (every node is told after commit).
 * Sessions are this module's table (src/db/table-owners.ts).
 */
export async function endSessionsOf(w: Write, userId: number): Promise<void> {
  const { count } = await w.tx.userSession.deleteMany({ where: { userId } });
  if (count > 0) w.accessChanged = true;
}

/**
 * A JSON body whose Origin, if sent, is Vexil's own or a configured one: no cross-site page can
 * send that (a form cannot send JSON; a script of another origin needs a CORS preflight only
 * those origins pass), so a script's session needs no CSRF header for it.
 */
export function isJsonFromAllowedOrigin(
  request: Request,
  config: Pick<Config, "publicUrl" | "http">,
): boolean {
  const type = request.headers.get("content-type") ?? "";
  if (!/^\s*application\/([\w.-]+\+)?json\s*(;|$)/i.test(type)) return false;
  const origin = request.headers.get("origin");
  if (origin === null) return true;
  const own = [new URL(config.publicUrl).origin, new URL(request.url).origin];
  return own.includes(origin) || config.http.corsOrigins.includes(origin);
}

/**
 * `POST /auth/logout`: ends the request's session under the CSRF rule of every other
 * cookie-authenticated change (`resolveSession`: a cross-site page must not log a user out);
 * a missing, unknown or expired session is nothing to end. Returns whether a session ended.
 */
export async function logOut(
  db: Db,
  config: Pick<Config, "publicUrl" | "http">,
  request: Request,
  now: Date,
) {
  const secret = cookieValue(request.headers.get("cookie"), SESSION_COOKIE);
  if (!secret) return false;
  const { principal, problem } = await resolveSession(
    db,
    secret,
    {
      method: request.method,
      csrfHeader: request.headers.get(CSRF_HEADER),
      jsonFromAllowedOrigin: isJsonFromAllowedOrigin(request, config),
    },
    now,
  );
  if (problem) throw problem;
  return principal !== null && (await deleteSession(db, secret));
}

export type SessionAuth = { principal: Principal | null; problem?: ForbiddenOperation };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Resolves a session cookie. A request that changes state (any method but GET/HEAD/OPTIONS)
 * must be same-site: either it echoes the session's CSRF token in `x-csrf-token` (a cross-site
 * page can send the cookie but cannot read the token), or it is a JSON body whose Origin, if
 * any, is allowed (what scripts send; a cross-site page cannot). Else it is refused (403).
 */
export async function resolveSession(
  db: Db,
  secret: string,
  request: { method: string; csrfHeader: string | null; jsonFromAllowedOrigin?: boolean },
  now: Date,
): Promise<SessionAuth> {
  const [session] = await sqlOf(db).query<UserWithGrants & { sessionExpiresAt: Date; csrfToken: string }>`
    SELECT s."expiresAt" AS "sessionExpiresAt", s."csrfToken", ${USER_WITH_GRANTS}
    FROM "UserSession" s JOIN "User" u ON u.id = s."userId" WHERE s.id = ${hashSecret(secret)}`;
  if (!session || session.sessionExpiresAt <= now || session.deletedAt) return { principal: null };
  const sameSite = request.csrfHeader === session.csrfToken || request.jsonFromAllowedOrigin === true;
  if (!SAFE_METHODS.has(request.method.toUpperCase()) && !sameSite) {
    return {
      principal: null,
      problem: new ForbiddenOperation(
        `Missing or invalid CSRF token: send the value of the ${CSRF_COOKIE} cookie in the ${CSRF_HEADER} header.`,
      ),
    };
  }
  if (isStale(session.seenAt, now)) {
    await db.user.update({ where: { id: session.id }, data: { seenAt: now } });
  }
  return { principal: { ...userPrincipal(session, "session"), expiresAt: session.sessionExpiresAt } };
}

/**
 * Reads one cookie from a `Cookie` header. A value that is not valid percent-encoding is
 * no cookie: a caller sending a mangled session cookie is simply not logged in.
 */
export function cookieValue(header: string | null | undefined, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return safeDecode(rest.join("="));
  }
  return null;
}

function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
