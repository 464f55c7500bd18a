import type { Plugin } from "graphql-yoga";
import type { AppDeps } from "../../src/context.ts";
import { clientAddress } from "../../src/http/client-address.ts";
import { requestIdOf } from "../../src/http/request-log.ts";
import { checkPassword } from "../../src/modules/access/login.ts";
import { createLoginLimiter, LoginRateLimited } from "../../src/modules/access/login-limits.ts";
import {
  CSRF_COOKIE,
  cookieValue,
  createSession,
  deleteSession,
  SESSION_COOKIE,
} from "../../src/modules/access/sessions.ts";
import { resetPassword, validateResetToken } from "../../src/modules/users/password-reset.ts";
import { DomainError, InvalidOperationError, ValidationError } from "../../src/shared/errors.ts";
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
 *   cookie and the readable CSRF cookie. Attempts are counted before the password is checked,
 *   per client address and per account from that address (login-limits.ts); past a limit the
 *   answer is 429 with Retry-After.
 * - `POST /auth/logout` → 200; ends the session and clears both cookies.
 * - `GET /auth/reset/validate?token=` → 200 `{id, email, name, role, createdBy}`; 401/403.
 * - `POST /auth/reset/password` `{token, password}` → 200; 400 weak or reused password.
 */
export function authPlugin(deps: AppDeps): Plugin {
  const limiter =
    deps.loginLimiter ??
    createLoginLimiter(
      { kind: "memory" },
      {
        perAccountAndAddress: deps.config.auth.loginRateLimitPerMinute,
        perAddress: deps.config.auth.loginAddressRateLimitPerMinute,
      },
    );

  const cookiePath = deps.config.baseUriPath || "/";
  const secure = deps.config.publicUrl.startsWith("https:") ? "; Secure" : "";

  async function login(request: Request, _url: URL, address: string): Promise<Response> {
    if (deps.config.auth.disablePasswordAuth) throw new InvalidOperationError("Password login is disabled.");
    const body = await jsonObject(request, deps.config.http.maxBodyBytes);
    const { username, password } = body;
    if (typeof username !== "string" || typeof password !== "string" || !username) {
      throw new ValidationError('"username" and "password" are required strings.');
    }
    // Counted before the (deliberately slow) hash: concurrent guesses cannot all get through.
    await limiter.take(address, username);
    const now = deps.now();
    const user = await checkPassword(deps.db, username, password, now);
    await limiter.succeeded(address, username);
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

  const handlers: Record<string, (request: Request, url: URL, address: string) => Promise<Response>> = {
    "POST /auth/simple/login": login,
    "POST /auth/logout": logout,
    "GET /auth/reset/validate": (_request, url) => validate(url),
    "POST /auth/reset/password": reset,
  };

  return {
    async onRequest({ request, url, endResponse, serverContext }) {
      if (!url.pathname.startsWith("/auth/")) return;
      const handler = handlers[`${request.method} ${url.pathname}`];
      if (!handler) {
        return endResponse(
          errorResponse(
            404,
            "NotFoundError",
            `No such path: ${request.method} ${url.pathname}`,
            {},
            requestIdOf(request),
          ),
        );
      }
      try {
        endResponse(
          await handler(request, url, clientAddress(request, serverContext, deps.config.auth.trustProxy)),
        );
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const response = errorResponse(
          STATUS_NAMES[error.code].status,
          error.name,
          error.message,
          { details: error.details },
          requestIdOf(request),
        );
        if (error instanceof LoginRateLimited)
          response.headers.set("retry-after", String(error.retryAfterSeconds));
        endResponse(response);
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
