import type { AppDeps } from "../../context.ts";
import { clientAddress } from "../../http/client-address.ts";
import { endpoint, type PublicEndpoint } from "../../http/public-endpoints.ts";
import type { DomainError } from "../../shared/errors.ts";
import { readJsonObject } from "../../shared/http-body.ts";
import { logInWithPassword } from "./login.write.ts";
import { createLoginLimiter, LoginRateLimited, loginLimitsOf } from "./login-limits.cache.ts";
import { clearedSessionCookies, logOut, sessionCookies } from "./sessions.write.ts";

/**
 * Password login and logout for browsers (public-endpoints.ts says why they are not GraphQL):
 * - `POST /auth/simple/login` `{username, password}` → 200 the user; sets the HttpOnly session
 *   cookie and the readable CSRF cookie; 429 with Retry-After past a login limit.
 * - `POST /auth/logout` → 200 `{}`; ends the session and clears both cookies; 403 without the
 *   session's CSRF token (or a same-site JSON body), as every cookie-authenticated change.
 */
export function loginEndpoints(deps: AppDeps): PublicEndpoint[] {
  // Without a shared store (serve.ts makes one), this process counts the attempts.
  const limiter = deps.loginLimiter ?? createLoginLimiter({ kind: "memory" }, loginLimitsOf(deps.config));
  return [
    endpoint("POST", "/auth/simple/login", async (request, _url, serverContext) => {
      const address = clientAddress(request, serverContext, deps.config.auth.trustProxy);
      const { user, session } = await logInWithPassword(deps, limiter, address, () =>
        readJsonObject(request, deps.config.http.maxBodyBytes, ["username", "password"]),
      );
      const response = Response.json(user);
      for (const cookie of sessionCookies(deps.config, session))
        response.headers.append("set-cookie", cookie);
      return response;
    }),
    endpoint("POST", "/auth/logout", async (request) => {
      // Streams opened with the session end on every node (revocation.plugin.ts).
      if (await logOut(deps.db, deps.config, request, deps.now())) deps.bus.publishAccessChange();
      const response = Response.json({});
      for (const cookie of clearedSessionCookies(deps.config)) response.headers.append("set-cookie", cookie);
      return response;
    }),
  ];
}

/** A refused login says when to try again. */
export function loginErrorHeaders(error: DomainError): Record<string, string> {
  return error instanceof LoginRateLimited ? { "retry-after": String(error.retryAfterSeconds) } : {};
}
