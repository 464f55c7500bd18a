import type { AppBase } from "../../context.ts";
import { PUBLIC_PAGES, stringProperties } from "../../http/public-endpoints.ts";
import { type HandlerRoute, PUBLIC } from "../../http/route-table.ts";
import { ValidationError } from "../../shared/errors.ts";
import { readJsonObject } from "../../shared/http-body.ts";
import { errorResponseDoc, jsonContent, jsonRequestBody, payloadTooLargeDoc } from "../../shared/openapi.ts";
import { assertStorableText } from "../../shared/text-input.ts";
import { assertStrongPassword } from "./password-policy.logic.ts";
import { requestResetLink, resetPasswordWithToken, validateResetToken } from "./password-reset.write.ts";

/**
 * The page behind a reset link, for a browser with no credential (public-endpoints.ts says why
 * these are not GraphQL):
 * - `GET /auth/reset/validate?token=` → 200 `{id, email, name, role, createdBy}`; 401/403.
 * - `POST /auth/reset/password` `{token, password}` → 200 `{}`; 400 weak or reused password.
 * - `POST /auth/reset/password-email` `{email}` → 200 empty, always (requestResetLink).
 * - `POST /auth/reset/validate-password` `{password}` → 200 empty when strong; 400 listing the
 *   rules broken (GraphQL: `validatePassword`).
 */
export function passwordResetRoutes(deps: AppBase): HandlerRoute[] {
  const route = (
    method: "GET" | "POST",
    path: string,
    doc: Omit<HandlerRoute["doc"], "tags">,
    handle: HandlerRoute["handle"],
  ): HandlerRoute => ({
    method,
    path,
    surface: PUBLIC_PAGES,
    access: PUBLIC,
    doc: { ...doc, tags: ["Auth"] },
    handle,
  });
  return [
    route(
      "GET",
      "/auth/reset/validate",
      {
        operationId: "authResetValidate",
        summary: "Check a password-reset token",
        description: "The user a reset link is for.",
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
      },
      async ({ url }) => {
        const token = url.searchParams.get("token") ?? "";
        assertStorableText(token, "token");
        return Response.json(await validateResetToken(deps.db, token, deps.now()));
      },
    ),
    route(
      "POST",
      "/auth/reset/password",
      {
        operationId: "authResetPassword",
        summary: "Set a new password with a reset token",
        description: "Uses the token once.",
        requestBody: jsonRequestBody({
          ...stringProperties("token", "password"),
          example: { token: "<from the link>", password: "N3w-Passw0rd!" },
        }),
        responses: {
          "200": { description: "Password changed.", content: jsonContent({ type: "object", example: {} }) },
          "400": errorResponseDoc("Weak or recently used password."),
          "401": errorResponseDoc("Unknown or expired token."),
          "413": payloadTooLargeDoc,
        },
      },
      async (req) => {
        const { token, password } = await readJsonObject(req, ["token", "password"]);
        await resetPasswordWithToken(deps, token, password);
        return Response.json({});
      },
    ),
    route(
      "POST",
      "/auth/reset/password-email",
      {
        operationId: "sendResetPasswordEmail",
        summary: "Ask for a password reset link",
        description:
          "Always 200 with no body, whether the account exists or not (no account enumeration). For an existing user a reset link is made, as in Unleash, but not sent: Vexil sends no email and never logs a credential (an admin hands links out with POST /api/admin/user-admin/reset-password). A second request within a minute makes none.",
        requestBody: jsonRequestBody({
          ...stringProperties("email"),
          example: { email: "dora@example.com" },
        }),
        responses: {
          "200": { description: "Accepted (no body)." },
          "400": errorResponseDoc("Missing email."),
          "413": payloadTooLargeDoc,
        },
      },
      async (req) => {
        const { email } = await readJsonObject(req, ["email"]);
        await requestResetLink(deps, email);
        return new Response(null, { status: 200 });
      },
    ),
    route(
      "POST",
      "/auth/reset/validate-password",
      {
        operationId: "validatePassword",
        summary: "Check a password against the strength rules",
        description:
          "At least 10 characters with a lower-case and an upper-case letter, a digit and a symbol, and no run of three identical characters.",
        requestBody: jsonRequestBody({
          ...stringProperties("password"),
          example: { password: "Str0ng-Passw0rd!" },
        }),
        responses: {
          "200": { description: "Strong enough (no body)." },
          "400": errorResponseDoc("The rules the password breaks."),
          "413": payloadTooLargeDoc,
        },
      },
      async (req) => {
        const { password } = await readJsonObject(req, ["password"]);
        if (typeof password !== "string") throw new ValidationError('"password" is a required string.');
        assertStrongPassword(password);
        return new Response(null, { status: 200 });
      },
    ),
  ];
}
