import type { AppDeps } from "../../src/context.ts";
import { signUpWithInvite, usableInvite } from "../../src/modules/invites/invites.service.ts";
import { isMaintenanceMode } from "../../src/modules/maintenance/maintenance.ts";
import { imageOf } from "../../src/modules/users/avatars.ts";
import { MaintenanceModeError } from "../../src/shared/errors.ts";
import { assertNoNul } from "../../src/shared/text-input.ts";
import { runWrite } from "../../src/shared/write.ts";

/** Reads a JSON object body; fields other than `fields` are a 400 (Unleash refuses them). */
type JsonObjectReader = (request: Request, fields: readonly string[]) => Promise<Record<string, unknown>>;

const INVITE_PATH = /^\/invite\/([^/]+)\/(validate|signup)$/;

/**
 * The public side of invite links (unauthenticated by nature, like `/auth/*`, so they call the
 * services directly; the admin side is GraphQL + REST routes in invites.ts):
 * - `GET /invite/:token/validate` → 200 empty when the link is usable; 400 otherwise.
 * - `POST /invite/:token/signup` `{email, name, password, username?}` → 200 the new user (root
 *   role: the link's, by id as Unleash's userSchema); 400 unusable link or weak password; 409
 *   taken email or username; 503 in maintenance mode.
 * Returns null for any other path.
 */
export function inviteHandler(
  deps: AppDeps,
  readObject: JsonObjectReader,
): (request: Request, url: URL) => Promise<Response> | null {
  return (request, url) => {
    const m = url.pathname.match(INVITE_PATH);
    if (!m) return null;
    const [, rawSecret, action] = m;
    let secret: string;
    try {
      secret = decodeURIComponent(rawSecret ?? "");
    } catch {
      secret = "";
    }
    if (action === "validate" && request.method === "GET") {
      return (async () => {
        assertNoNul(secret, "token");
        await usableInvite(deps.db, secret, deps.now());
        return new Response(null, { status: 200 });
      })();
    }
    if (action === "signup" && request.method === "POST") {
      return (async () => {
        assertNoNul(secret, "token");
        const body = await readObject(request, ["email", "name", "password", "username"]);
        // A sign-up is a change: refused in maintenance mode, as GraphQL mutations are.
        if (await isMaintenanceMode(deps.db)) throw new MaintenanceModeError();
        const user = await runWrite({ ...deps, principal: null }, async (w) => {
          const created = await signUpWithInvite(w, secret, body);
          const role = await w.tx.role.findUniqueOrThrow({ where: { name: created.rootRole } });
          return { ...created, roleId: role.id };
        });
        return Response.json({
          id: user.id,
          name: user.name,
          email: user.email,
          username: user.username,
          imageUrl: imageOf(deps.config.publicUrl, user),
          rootRole: user.roleId,
          createdAt: user.createdAt.toISOString(),
          seenAt: null,
          accountType: "User",
        });
      })();
    }
    return null;
  };
}

const errorRef = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

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
          "400": errorRef("Unknown, disabled or expired link."),
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
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
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
              },
            },
          },
        },
        responses: {
          "200": {
            description: "The new user.",
            content: {
              "application/json": {
                schema: {
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
                },
              },
            },
          },
          "400": errorRef("Unusable link, missing field or weak password."),
          "409": errorRef("The email or username is taken."),
          "503": errorRef("Maintenance mode is on."),
        },
      },
    },
  };
}
