import type { AppBase } from "../../context.ts";
import { PUBLIC_PAGES } from "../../http/public-endpoints.ts";
import { type HandlerRoute, PUBLIC } from "../../http/route-table.ts";
import { readJsonObject } from "../../shared/http-body.ts";
import { errorResponseDoc, jsonContent, jsonRequestBody, payloadTooLargeDoc } from "../../shared/openapi.ts";
import { assertStorableText } from "../../shared/text-input.ts";
import { signUpWithInviteLink, usableInvite } from "./invites.write.ts";

/**
 * The public side of invite links, for a browser with no credential (public-endpoints.ts says
 * why these are not GraphQL; the admin side is GraphQL + REST routes):
 * - `GET /invite/:token/validate` → 200 empty when the link is usable; 400 otherwise.
 * - `POST /invite/:token/signup` `{email, name, password, username?}` → 200 the new user
 *   (signUpWithInviteLink); 400 unusable link or weak password; 409 taken email or username;
 *   503 in maintenance mode.
 */
export function inviteRoutes(deps: AppBase): HandlerRoute[] {
  const invite = { surface: PUBLIC_PAGES, access: PUBLIC } as const;
  const tags = ["Public signup tokens"];
  return [
    {
      ...invite,
      method: "GET",
      path: "/invite/:token/validate",
      doc: {
        operationId: "validatePublicSignupToken",
        summary: "Check that an invite link can be used",
        description: "200 with no body when the link exists, is enabled and has not expired; else 400.",
        tags,
        responses: {
          "200": { description: "The link is usable." },
          "400": errorResponseDoc("Unknown, disabled or expired link."),
        },
      },
      handle: async ({ params }) => {
        const secret = decodedOrEmpty(params.token ?? "");
        assertStorableText(secret, "token");
        await usableInvite(deps.db, secret, deps.now());
        return new Response(null, { status: 200 });
      },
    },
    {
      ...invite,
      method: "POST",
      path: "/invite/:token/signup",
      doc: {
        operationId: "addPublicSignupTokenUser",
        summary: "Sign up with an invite link",
        description:
          "Creates a user with the link's root role. Records user-created and public-signup-token-user-added.",
        tags,
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
          "413": payloadTooLargeDoc,
          "503": errorResponseDoc("Maintenance mode is on."),
        },
      },
      handle: async (req) => {
        const secret = decodedOrEmpty(req.params.token ?? "");
        assertStorableText(secret, "token");
        const body = await readJsonObject(req, ["email", "name", "password", "username"]);
        return Response.json(await signUpWithInviteLink(deps, secret, body));
      },
    },
  ];
}

/** A secret that is not valid percent-encoding matches no link. */
function decodedOrEmpty(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return "";
  }
}
