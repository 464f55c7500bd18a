import type { Plugin } from "graphql-yoga";
import type { AppDeps } from "../../src/context.ts";
import { checkPassword } from "../../src/modules/access/login.ts";
import {
  CSRF_COOKIE,
  cookieValue,
  createSession,
  deleteSession,
  SESSION_COOKIE,
} from "../../src/modules/access/sessions.ts";
import { resetPassword, validateResetToken } from "../../src/modules/users/password-reset.ts";
import {
  DomainError,
  InvalidOperationError,
  RateLimitError,
  ValidationError,
} from "../../src/shared/errors.ts";
import { parseJsonBody, readBodyText } from "../../src/shared/http-body.ts";
import { assertNoNul } from "../../src/shared/text-input.ts";
import { runWrite } from "../../src/shared/write.ts";
import { errorResponse, STATUS_NAMES } from "../errors.ts";

/**
 * The browser-facing `/auth/*` endpoints (outside `/api/admin`, unauthenticated by nature):
 * password login and logout with a session cookie, and the page behind a reset link. They
 * set cookies, which GraphQL operations cannot, so they call the services directly.
 *
 * - `POST /auth/simple/login` `{username, password}` → 200 user; sets the HttpOnly session
 *   cookie and the readable CSRF cookie. After LOGIN_RATE_LIMIT_PER_MINUTE failed attempts
 *   for a username within a minute, further attempts get 429 until the minute is over.
 * - `POST /auth/logout` → 200; ends the session and clears both cookies.
 * - `GET /auth/reset/validate?token=` → 200 `{id, email, name, role, createdBy}`; 401/403.
 * - `POST /auth/reset/password` `{token, password}` → 200; 400 weak or reused password.
 */
export function authPlugin(deps: AppDeps): Plugin {
  const attempts = new Map<string, { windowStart: number; count: number }>();

  /** Failed attempts per username in the current one-minute window (per process). */
  function failuresOf(login: string) {
    const now = deps.now().getTime();
    const key = login.trim().toLowerCase();
    let entry = attempts.get(key);
    if (!entry || now - entry.windowStart >= 60_000) {
      entry = { windowStart: now, count: 0 };
      attempts.set(key, entry);
    }
    return entry;
  }

  const cookiePath = deps.config.baseUriPath || "/";
  const secure = deps.config.publicUrl.startsWith("https:") ? "; Secure" : "";

  async function login(request: Request): Promise<Response> {
    if (deps.config.auth.disablePasswordAuth) throw new InvalidOperationError("Password login is disabled.");
    const body = await jsonObject(request, deps.config.http.maxBodyBytes);
    const { username, password } = body;
    if (typeof username !== "string" || typeof password !== "string" || !username) {
      throw new ValidationError('"username" and "password" are required strings.');
    }
    const failures = failuresOf(username);
    if (failures.count >= deps.config.auth.loginRateLimitPerMinute) {
      throw new RateLimitError("Too many failed login attempts; try again in a minute.");
    }
    const now = deps.now();
    const user = await checkPassword(deps.db, username, password, now).catch((error: unknown) => {
      failures.count += 1;
      throw error;
    });
    const session = await createSession(deps.db, user.id, now, deps.config.auth.sessionTtlMs);
    const maxAge = Math.floor(deps.config.auth.sessionTtlMs / 1000);
    const response = Response.json({
      id: user.id,
      name: user.name,
      email: user.email,
      username: user.username,
      imageUrl: user.imageUrl,
      rootRole: user.rootRole,
    });
    response.headers.append(
      "set-cookie",
      `${SESSION_COOKIE}=${session.secret}; Path=${cookiePath}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`,
    );
    response.headers.append(
      "set-cookie",
      `${CSRF_COOKIE}=${session.csrfToken}; Path=${cookiePath}; SameSite=Strict; Max-Age=${maxAge}${secure}`,
    );
    return response;
  }

  async function logout(request: Request): Promise<Response> {
    const secret = cookieValue(request.headers.get("cookie"), SESSION_COOKIE);
    if (secret) await deleteSession(deps.db, secret);
    const response = Response.json({});
    for (const name of [SESSION_COOKIE, CSRF_COOKIE]) {
      response.headers.append("set-cookie", `${name}=; Path=${cookiePath}; Max-Age=0${secure}`);
    }
    return response;
  }

  async function validate(url: URL): Promise<Response> {
    const token = url.searchParams.get("token") ?? "";
    assertNoNul(token, "token");
    return Response.json(await validateResetToken(deps.db, token, deps.now()));
  }

  async function reset(request: Request): Promise<Response> {
    const { token, password } = await jsonObject(request, deps.config.http.maxBodyBytes);
    if (typeof token !== "string" || typeof password !== "string") {
      throw new ValidationError('"token" and "password" are required strings.');
    }
    await runWrite({ ...deps, principal: null }, (w) => resetPassword(w, token, password));
    return Response.json({});
  }

  const handlers: Record<string, (request: Request, url: URL) => Promise<Response>> = {
    "POST /auth/simple/login": login,
    "POST /auth/logout": logout,
    "GET /auth/reset/validate": (_request, url) => validate(url),
    "POST /auth/reset/password": reset,
  };

  return {
    async onRequest({ request, url, endResponse }) {
      if (!url.pathname.startsWith("/auth/")) return;
      const handler = handlers[`${request.method} ${url.pathname}`];
      if (!handler) {
        return endResponse(
          errorResponse(404, "NotFoundError", `No such path: ${request.method} ${url.pathname}`),
        );
      }
      try {
        endResponse(await handler(request, url));
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        endResponse(
          errorResponse(STATUS_NAMES[error.code].status, error.name, error.message, {
            details: error.details,
          }),
        );
      }
    },
  };
}

/** The body as a JSON object, within the size limit and without NUL in any text. */
async function jsonObject(request: Request, limit: number): Promise<Record<string, unknown>> {
  const text = await readBodyText(request, limit);
  let body: unknown;
  try {
    body = parseJsonBody(text);
  } catch {
    body = undefined;
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ValidationError("The request body must be a JSON object.");
  }
  assertNoNul(body);
  return body as Record<string, unknown>;
}
