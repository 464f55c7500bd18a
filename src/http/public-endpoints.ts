import type { Surface } from "./route-table.ts";

/**
 * The browser-facing endpoints outside `/api/admin` that anyone may call without a credential
 * (password login and logout, password reset, invite sign-up): `/auth/**` and `/invite/**`.
 *
 * They are not REST routes running GraphQL operations, for two reasons: the `/graphql` door
 * (graphql-gate.ts) refuses every operation without a credential, by design, and these are
 * the requests that come before one; and login and logout set or clear the HttpOnly session
 * cookie, which an operation's result cannot. So each module exports its routes
 * (access/login.endpoints.ts, users/password-reset.endpoints.ts, invites/invites.endpoints.ts),
 * which read the request and call the module's functions. Errors are the REST error body.
 */
export const PUBLIC_PAGES: Surface = { name: "auth", prefixes: ["/auth", "/invite"], decodesPath: false };

/** An OpenAPI body schema of required string fields and no others. */
export const stringProperties = (...names: string[]) => ({
  type: "object",
  required: names,
  properties: Object.fromEntries(names.map((name) => [name, { type: "string" }])),
  additionalProperties: false,
});
