import type { AppBase } from "../../context.ts";
import { endpoint, type PublicEndpoint } from "../../http/public-endpoints.ts";
import { ValidationError } from "../../shared/errors.ts";
import { readJsonObject } from "../../shared/http-body.ts";
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
export function passwordResetEndpoints(deps: AppBase): PublicEndpoint[] {
  const body = (request: Request, fields: string[]) =>
    readJsonObject(request, deps.config.http.maxBodyBytes, fields);
  return [
    endpoint("GET", "/auth/reset/validate", async (_request, url) => {
      const token = url.searchParams.get("token") ?? "";
      assertStorableText(token, "token");
      return Response.json(await validateResetToken(deps.db, token, deps.now()));
    }),
    endpoint("POST", "/auth/reset/password", async (request) => {
      const { token, password } = await body(request, ["token", "password"]);
      await resetPasswordWithToken(deps, token, password);
      return Response.json({});
    }),
    endpoint("POST", "/auth/reset/password-email", async (request) => {
      const { email } = await body(request, ["email"]);
      await requestResetLink(deps, email);
      return new Response(null, { status: 200 });
    }),
    endpoint("POST", "/auth/reset/validate-password", async (request) => {
      const { password } = await body(request, ["password"]);
      if (typeof password !== "string") throw new ValidationError('"password" is a required string.');
      assertStrongPassword(password);
      return new Response(null, { status: 200 });
    }),
  ];
}
