import type { AppDeps } from "../../context.ts";
import { clientAddress } from "../../http/client-address.ts";
import { PUBLIC_PAGES, stringProperties } from "../../http/public-endpoints.ts";
import { type HandlerRoute, PUBLIC } from "../../http/route-table.ts";
import { readJsonObject } from "../../shared/http-body.ts";
import { errorResponseDoc, jsonContent, jsonRequestBody, payloadTooLargeDoc } from "../../shared/openapi.ts";
import { logInWithPassword } from "./login.write.ts";
import { createLoginLimiter, loginLimitsOf } from "./login-limits.cache.ts";
import { clearedSessionCookies, logOut, sessionCookies } from "./sessions.write.ts";

const AUTH_USER = {
  type: "object",
  properties: {
    id: { type: "integer" },
    name: { type: ["string", "null"] },
    email: { type: ["string", "null"] },
    username: { type: ["string", "null"] },
    imageUrl: { type: "string" },
    rootRole: { type: "string" },
  },
  example: {
    id: 3,
    name: "Dora",
    email: "dora@example.com",
    username: "dora",
    imageUrl: "/avatars/3.svg",
    rootRole: "Editor",
  },
};

/**
 * Password login and logout for browsers (public-endpoints.ts says why they are not GraphQL):
 * - `POST /auth/simple/login` `{username, password}` → 200 the user; sets the HttpOnly session
 *   cookie and the readable CSRF cookie; 429 with Retry-After past a login limit.
 * - `POST /auth/logout` → 200 `{}`; ends the session and clears both cookies; 403 without the
 *   session's CSRF token (or a same-site JSON body), as every cookie-authenticated change.
 */
export function loginRoutes(deps: AppDeps): HandlerRoute[] {
  // Without a shared store (serve.ts makes one), this process counts the attempts.
  const limiter = deps.loginLimiter ?? createLoginLimiter({ kind: "memory" }, loginLimitsOf(deps.config));
  const auth = { method: "POST", surface: PUBLIC_PAGES, access: PUBLIC } as const;
  return [
    {
      ...auth,
      path: "/auth/simple/login",
      doc: {
        operationId: "authLogin",
        summary: "Log in with a password",
        description:
          "Sets the HttpOnly session cookie and the readable CSRF cookie (send its value as `x-csrf-token` on writes). Attempts are rate-limited per address and per account.",
        tags: ["Auth"],
        requestBody: jsonRequestBody({
          ...stringProperties("username", "password"),
          example: { username: "dora", password: "Str0ng-Passw0rd!" },
        }),
        responses: {
          "200": { description: "The user; cookies set.", content: jsonContent(AUTH_USER) },
          "400": errorResponseDoc("Missing username or password, or password login disabled."),
          "401": errorResponseDoc("Wrong username or password."),
          "429": errorResponseDoc("Too many attempts; see Retry-After."),
          "413": payloadTooLargeDoc,
        },
      },
      handle: async (req) => {
        const address = clientAddress(req.request, req.serverContext, deps.config.auth.trustProxy);
        const { user, session } = await logInWithPassword(deps, limiter, address, () =>
          readJsonObject(req, ["username", "password"]),
        );
        const response = Response.json(user);
        for (const cookie of sessionCookies(deps.config, session))
          response.headers.append("set-cookie", cookie);
        return response;
      },
    },
    {
      ...auth,
      path: "/auth/logout",
      doc: {
        operationId: "authLogout",
        summary: "Log out",
        description:
          "Ends the session and clears both cookies. Like every cookie-authenticated change, it needs the session's CSRF token in `x-csrf-token` (or a JSON body from Vexil's origin).",
        tags: ["Auth"],
        responses: {
          "200": {
            description: "Logged out (also when there was no session).",
            content: jsonContent({ type: "object", example: {} }),
          },
          "403": errorResponseDoc("Missing or invalid CSRF token."),
        },
      },
      handle: async ({ request }) => {
        // Streams opened with the session end on every node (revocation.plugin.ts).
        if (await logOut(deps.db, deps.config, request, deps.now())) deps.bus.publishAccessChange();
        const response = Response.json({});
        for (const cookie of clearedSessionCookies(deps.config))
          response.headers.append("set-cookie", cookie);
        return response;
      },
    },
  ];
}
