import type { Permission } from "./permissions.logic.ts";

/**
 * One permission a principal holds: `project` null means every project, `environment` null
 * every environment (reference-behaviours §9.2: absent or `*` matches anything).
 */
export type Grant = { permission: Permission; project: string | null; environment: string | null };

/**
 * Who is calling, resolved once per request (or WebSocket connection) from the credentials.
 * `userId` is the user behind the credential (null for API tokens); the actor written into
 * events uses `eventUserId` (Unleash convention: -42 for admin API tokens).
 */
export type Principal = {
  kind: "admin-token" | "client-token" | "frontend-token" | "user";
  /** How the caller authenticated: an API token, a personal access token, or a login session. */
  via: "api-token" | "pat" | "session";
  /** Display name written to `createdBy` of events. */
  name: string;
  userId: number | null;
  /** The API token behind the call (null for users, whatever their credential). */
  tokenId: number | null;
  /** The root role (a predefined or root-custom role name); null for client/frontend tokens. */
  rootRole: string | null;
  /** Token scope: project ids, or ["*"] for every project. */
  projects: string[];
  /** Token scope: one environment, or "*". */
  environment: string;
  /** Every permission held: from the root role and from each project membership. */
  grants: Grant[];
  /** When the credential (API token, personal access token, session) stops working; null: never. */
  expiresAt?: Date | null;
};
