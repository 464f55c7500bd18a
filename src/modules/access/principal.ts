import type { Permission } from "./permissions.ts";

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
  /** When an API token stops working (null: never; absent for other credentials). */
  expiresAt?: Date | null;
};

/** Unleash writes -42 as createdByUserId for changes made with an admin API token. */
export const ADMIN_TOKEN_USER_ID = -42;
/** Unleash writes -1337 for changes made by the system itself (schedulers, bootstrap). */
export const SYSTEM_USER_ID = -1337;

/**
 * Who a write is done by. API tokens all write user -42 (as Unleash), so `tokenId` tells them
 * apart where identity matters (the author of a change request cannot approve it).
 */
export type Actor = { userId: number | null; name: string; tokenId?: number | null };

export function actorOf(principal: Principal | null): Actor {
  if (!principal) return { userId: SYSTEM_USER_ID, name: "system" };
  if (principal.kind === "user") return { userId: principal.userId, name: principal.name };
  return { userId: ADMIN_TOKEN_USER_ID, name: principal.name, tokenId: principal.tokenId };
}

export const SYSTEM_ACTOR: Actor = { userId: SYSTEM_USER_ID, name: "system" };
