import type { AppBase } from "../../context.ts";
import type { PublicEndpoint } from "../../http/public-endpoints.ts";
import { readJsonObject } from "../../shared/http-body.ts";
import { assertStorableText } from "../../shared/text-input.ts";
import { signUpWithInviteLink, usableInvite } from "./invites.write.ts";

const INVITE_PATH = /^\/invite\/([^/]+)\/(validate|signup)$/;

/**
 * The public side of invite links, for a browser with no credential (public-endpoints.ts says
 * why these are not GraphQL; the admin side is GraphQL + REST routes):
 * - `GET /invite/:token/validate` → 200 empty when the link is usable; 400 otherwise.
 * - `POST /invite/:token/signup` `{email, name, password, username?}` → 200 the new user
 *   (signUpWithInviteLink); 400 unusable link or weak password; 409 taken email or username;
 *   503 in maintenance mode.
 */
export function inviteEndpoints(deps: AppBase): PublicEndpoint {
  return (request, url) => {
    const m = url.pathname.match(INVITE_PATH);
    if (!m) return null;
    const [, rawSecret, action] = m;
    const secret = decodedOrEmpty(rawSecret ?? "");
    if (action === "validate" && request.method === "GET") {
      return (async () => {
        assertStorableText(secret, "token");
        await usableInvite(deps.db, secret, deps.now());
        return new Response(null, { status: 200 });
      })();
    }
    if (action === "signup" && request.method === "POST") {
      return (async () => {
        assertStorableText(secret, "token");
        const body = await readJsonObject(request, deps.config.http.maxBodyBytes, [
          "email",
          "name",
          "password",
          "username",
        ]);
        return Response.json(await signUpWithInviteLink(deps, secret, body));
      })();
    }
    return null;
  };
}

/** A secret that is not valid percent-encoding matches no link. */
function decodedOrEmpty(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return "";
  }
}
