import type { Principal } from "../modules/access/principal.types.ts";

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
