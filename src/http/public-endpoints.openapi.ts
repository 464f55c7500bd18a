/**
 * The OpenAPI description of the public endpoints (public-endpoints.ts): `/auth/*`
 * (access/login.endpoints.ts, users/password-reset.endpoints.ts) and `/invite/*`
 * (invites/invites.endpoints.ts). rest/openapi.ts adds them to the document.
 */

import { errorResponseDoc, jsonContent, jsonRequestBody } from "../shared/openapi.ts";

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

const stringProperties = (...names: string[]) => ({
  type: "object",
  required: names,
  properties: Object.fromEntries(names.map((name) => [name, { type: "string" }])),
  additionalProperties: false,
});

/** The `/auth/*` endpoints in the OpenAPI document (tag Auth; no API token needed). */
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
          requestBody: jsonRequestBody({
            ...stringProperties("username", "password"),
            example: { username: "dora", password: "Str0ng-Passw0rd!" },
          }),
          responses: {
            "200": {
              description: "The user; cookies set.",
              content: jsonContent(AUTH_USER),
            },
            "400": errorResponseDoc("Missing username or password, or password login disabled."),
            "401": errorResponseDoc("Wrong username or password."),
            "429": errorResponseDoc("Too many attempts; see Retry-After."),
          },
        },
      ),
    },
    "/auth/logout": {
      post: operation(
        "Log out",
        "Ends the session and clears both cookies. Like every cookie-authenticated change, it needs the session's CSRF token in `x-csrf-token` (or a JSON body from Vexil's origin).",
        {
          operationId: "authLogout",
          responses: {
            "200": {
              description: "Logged out (also when there was no session).",
              content: jsonContent({ type: "object", example: {} }),
            },
            "403": errorResponseDoc("Missing or invalid CSRF token."),
          },
        },
      ),
    },
    "/auth/reset/validate": {
      get: operation("Check a password-reset token", "The user a reset link is for.", {
        operationId: "authResetValidate",
        parameters: [{ name: "token", in: "query", required: true, schema: { type: "string" } }],
        responses: {
          "200": {
            description: "The user of the link.",
            content: jsonContent({
              type: "object",
              example: { id: 3, email: "dora@example.com", name: "Dora", role: "Editor", createdBy: "admin" },
            }),
          },
          "401": errorResponseDoc("Unknown or expired token."),
          "403": errorResponseDoc("Token already used."),
        },
      }),
    },
    "/auth/reset/password": {
      post: operation("Set a new password with a reset token", "Uses the token once.", {
        operationId: "authResetPassword",
        requestBody: jsonRequestBody({
          ...stringProperties("token", "password"),
          example: { token: "<from the link>", password: "N3w-Passw0rd!" },
        }),
        responses: {
          "200": {
            description: "Password changed.",
            content: jsonContent({ type: "object", example: {} }),
          },
          "400": errorResponseDoc("Weak or recently used password."),
          "401": errorResponseDoc("Unknown or expired token."),
        },
      }),
    },
    "/auth/reset/password-email": {
      post: operation(
        "Ask for a password reset link",
        "Always 200 with no body, whether the account exists or not (no account enumeration). For an existing user a reset link is made, as in Unleash, but not sent: Vexil sends no email and never logs a credential (an admin hands links out with POST /api/admin/user-admin/reset-password). A second request within a minute makes none.",
        {
          operationId: "sendResetPasswordEmail",
          requestBody: jsonRequestBody({
            ...stringProperties("email"),
            example: { email: "dora@example.com" },
          }),
          responses: {
            "200": { description: "Accepted (no body)." },
            "400": errorResponseDoc("Missing email."),
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
          requestBody: jsonRequestBody({
            ...stringProperties("password"),
            example: { password: "Str0ng-Passw0rd!" },
          }),
          responses: {
            "200": { description: "Strong enough (no body)." },
            "400": errorResponseDoc("The rules the password breaks."),
          },
        },
      ),
    },
  };
}

/** The `/invite/*` endpoints in the OpenAPI document (tag Public signup tokens; no credential). */
export function inviteOpenApiPaths(): Record<string, Record<string, unknown>> {
  const tokenParam = { name: "token", in: "path", required: true, schema: { type: "string" } };
  return {
    "/invite/{token}/validate": {
      get: {
        operationId: "validatePublicSignupToken",
        summary: "Check that an invite link can be used",
        description: "200 with no body when the link exists, is enabled and has not expired; else 400.",
        tags: ["Public signup tokens"],
        security: [],
        parameters: [tokenParam],
        responses: {
          "200": { description: "The link is usable." },
          "400": errorResponseDoc("Unknown, disabled or expired link."),
        },
      },
    },
    "/invite/{token}/signup": {
      post: {
        operationId: "addPublicSignupTokenUser",
        summary: "Sign up with an invite link",
        description:
          "Creates a user with the link's root role. Records user-created and public-signup-token-user-added.",
        tags: ["Public signup tokens"],
        security: [],
        parameters: [tokenParam],
        requestBody: jsonRequestBody({
          type: "object",
          required: ["email", "name", "password"],
          additionalProperties: false,
          properties: {
            email: { type: "string" },
            name: { type: "string" },
            password: { type: "string" },
            username: { type: "string" },
          },
          example: { email: "dora@example.com", name: "Dora", password: "Str0ng-Passw0rd!" },
        }),
        responses: {
          "200": {
            description: "The new user.",
            content: jsonContent({
              type: "object",
              example: {
                id: 7,
                name: "Dora",
                email: "dora@example.com",
                username: null,
                imageUrl: "http://localhost:4242/avatars/7.svg",
                rootRole: 3,
                createdAt: "2026-11-25T18:00:00.000Z",
                seenAt: null,
                accountType: "User",
              },
            }),
          },
          "400": errorResponseDoc("Unusable link, missing field or weak password."),
          "409": errorResponseDoc("The email or username is taken."),
          "503": errorResponseDoc("Maintenance mode is on."),
        },
      },
    },
  };
}
