import type { Plugin } from "graphql-yoga";
import { z } from "zod";
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
import { assertStrongPassword } from "../../src/modules/users/password-policy.ts";
import {
  createResetLink,
  resetPassword,
  validateResetToken,
} from "../../src/modules/users/password-reset.ts";
import { errorResponse, STATUS_NAMES } from "../../src/shared/error-response.ts";
import {
  DomainError,
  InvalidOperationError,
  NotFoundError,
  RateLimitError,
  ValidationError,
} from "../../src/shared/errors.ts";
import { parseJsonBody, readBodyText } from "../../src/shared/http-body.ts";
import { assertNoNul } from "../../src/shared/text-input.ts";
import { runWrite } from "../../src/shared/write.ts";
import { unknownBodyFields } from "../body-fields.ts";
import { inviteHandler } from "./invite-public.ts";

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
 * - `POST /auth/reset/password-email` `{email}` → 200 empty, always: for an existing user a reset
 *   link is made (not sent: Vexil sends no email, nor logs it); unknown email or a link made within the
 *   last minute answer the same 200, so the answer never tells whether an account exists.
 * - `POST /auth/reset/validate-password` `{password}` → 200 empty when strong; 400 listing the rules broken.
 * - `/invite/*`: the public side of invite links (invite-public.ts).
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
    const body = await jsonObject(request, deps.config.http.maxBodyBytes, ["username", "password"]);
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
    const { token, password } = await jsonObject(request, deps.config.http.maxBodyBytes, [
      "token",
      "password",
    ]);
    if (typeof token !== "string" || typeof password !== "string") {
      throw new ValidationError('"token" and "password" are required strings.');
    }
    await runWrite({ ...deps, principal: null }, (w) => resetPassword(w, token, password));
    return Response.json({});
  }

  async function passwordEmail(request: Request): Promise<Response> {
    const { email } = await jsonObject(request, deps.config.http.maxBodyBytes, ["email"]);
    if (typeof email !== "string" || !email) throw new ValidationError('"email" is a required string.');
    try {
      await runWrite({ ...deps, principal: null }, (w) => createResetLink(w, { id: email }));
      // Unleash without SMTP logs the link at debug level; Vexil never logs a credential.
      deps.logger.warn(
        "password reset link made but not sent: Vexil sends no email; an admin can hand one out (POST /api/admin/user-admin/reset-password)",
      );
    } catch (error) {
      // Same answer for unknown accounts and repeated requests: no account enumeration.
      if (!(error instanceof NotFoundError || error instanceof RateLimitError)) throw error;
    }
    return new Response(null, { status: 200 });
  }

  async function validatePassword(request: Request): Promise<Response> {
    const { password } = await jsonObject(request, deps.config.http.maxBodyBytes, ["password"]);
    if (typeof password !== "string") throw new ValidationError('"password" is a required string.');
    assertStrongPassword(password);
    return new Response(null, { status: 200 });
  }

  const invite = inviteHandler(deps, (request, fields) =>
    jsonObject(request, deps.config.http.maxBodyBytes, fields),
  );

  const handlers: Record<string, (request: Request, url: URL, address: string) => Promise<Response>> = {
    "POST /auth/simple/login": login,
    "POST /auth/logout": logout,
    "GET /auth/reset/validate": (_request, url) => validate(url),
    "POST /auth/reset/password": reset,
    "POST /auth/reset/password-email": passwordEmail,
    "POST /auth/reset/validate-password": validatePassword,
  };

  return {
    async onRequest({ request, url, endResponse, serverContext }) {
      const isInvite = url.pathname.startsWith("/invite/");
      if (!url.pathname.startsWith("/auth/") && !isInvite) return;
      const handler = handlers[`${request.method} ${url.pathname}`];
      const pending = isInvite
        ? invite(request, url)
        : handler?.(request, url, clientAddress(request, serverContext, deps.config.auth.trustProxy));
      if (!pending) {
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
        endResponse(await pending);
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

/**
 * The body as a JSON object, within the size limit and without NUL in any text. Fields other
 * than `fields` are a 400, as Unleash's schemas of these bodies refuse them.
 */
async function jsonObject(
  request: Request,
  limit: number,
  fields: readonly string[],
): Promise<Record<string, unknown>> {
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
  const unknown = unknownBodyFields(
    z.strictObject(Object.fromEntries(fields.map((f) => [f, z.unknown()]))),
    body,
  );
  if (unknown.length > 0) throw new ValidationError(unknown.map((u) => u.message).join(" "), unknown);
  return body as Record<string, unknown>;
}

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

const jsonBody = (schema: Record<string, unknown>) => ({
  required: true,
  content: { "application/json": { schema } },
});

const authError = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

const stringProperties = (...names: string[]) => ({
  type: "object",
  required: names,
  properties: Object.fromEntries(names.map((name) => [name, { type: "string" }])),
  additionalProperties: false,
});

/** The `/auth/*` endpoints above in the OpenAPI document (tag Auth; no API token needed). */
export function authOpenApiPaths(): Record<string, Record<string, unknown>> {
  const operation = (summary: string, description: string, extra: Record<string, unknown>) => ({
    summary,
    description,
    tags: ["Auth"],
    security: [],
    ...extra,
  });
  return {
    "/auth/simple/login": {
      post: operation(
        "Log in with a password",
        "Sets the HttpOnly session cookie and the readable CSRF cookie (send its value as `x-csrf-token` on writes). Attempts are rate-limited per address and per account.",
        {
          operationId: "authLogin",
          requestBody: jsonBody({
            ...stringProperties("username", "password"),
            example: { username: "dora", password: "Str0ng-Passw0rd!" },
          }),
          responses: {
            "200": {
              description: "The user; cookies set.",
              content: { "application/json": { schema: AUTH_USER } },
            },
            "400": authError("Missing username or password, or password login disabled."),
            "401": authError("Wrong username or password."),
            "429": authError("Too many attempts; see Retry-After."),
          },
        },
      ),
    },
    "/auth/logout": {
      post: operation("Log out", "Ends the session and clears both cookies.", {
        operationId: "authLogout",
        responses: {
          "200": {
            description: "Logged out.",
            content: { "application/json": { schema: { type: "object", example: {} } } },
          },
        },
      }),
    },
    "/auth/reset/validate": {
      get: operation("Check a password-reset token", "The user a reset link is for.", {
        operationId: "authResetValidate",
        parameters: [{ name: "token", in: "query", required: true, schema: { type: "string" } }],
        responses: {
          "200": {
            description: "The user of the link.",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  example: {
                    id: 3,
                    email: "dora@example.com",
                    name: "Dora",
                    role: "Editor",
                    createdBy: "admin",
                  },
                },
              },
            },
          },
          "401": authError("Unknown or expired token."),
          "403": authError("Token already used."),
        },
      }),
    },
    "/auth/reset/password": {
      post: operation("Set a new password with a reset token", "Uses the token once.", {
        operationId: "authResetPassword",
        requestBody: jsonBody({
          ...stringProperties("token", "password"),
          example: { token: "<from the link>", password: "N3w-Passw0rd!" },
        }),
        responses: {
          "200": {
            description: "Password changed.",
            content: { "application/json": { schema: { type: "object", example: {} } } },
          },
          "400": authError("Weak or recently used password."),
          "401": authError("Unknown or expired token."),
        },
      }),
    },
    "/auth/reset/password-email": {
      post: operation(
        "Ask for a password reset link",
        "Always 200 with no body, whether the account exists or not (no account enumeration). For an existing user a reset link is made, as in Unleash, but not sent: Vexil sends no email and never logs a credential (an admin hands links out with POST /api/admin/user-admin/reset-password). A second request within a minute makes none.",
        {
          operationId: "sendResetPasswordEmail",
          requestBody: jsonBody({ ...stringProperties("email"), example: { email: "dora@example.com" } }),
          responses: {
            "200": { description: "Accepted (no body)." },
            "400": authError("Missing email."),
          },
        },
      ),
    },
    "/auth/reset/validate-password": {
      post: operation(
        "Check a password against the strength rules",
        "At least 10 characters with a lower-case and an upper-case letter, a digit and a symbol, and no run of three identical characters.",
        {
          operationId: "validatePassword",
          requestBody: jsonBody({
            ...stringProperties("password"),
            example: { password: "Str0ng-Passw0rd!" },
          }),
          responses: {
            "200": { description: "Strong enough (no body)." },
            "400": authError("The rules the password breaks."),
          },
        },
      ),
    },
  };
}
