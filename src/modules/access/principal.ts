/**
 * Who is calling, resolved once per request (or WebSocket connection) from the credentials.
 * `userId` is the user behind the credential (null for API tokens); the actor written into
 * events uses `eventUserId` (Unleash convention: -42 for admin API tokens).
 */
export type Principal = {
  kind: "admin-token" | "client-token" | "frontend-token" | "user";
  /** Display name written to `createdBy` of events. */
  name: string;
  userId: number | null;
  rootRole: "Admin" | "Editor" | "Viewer" | null;
  /** Token scope: project ids, or ["*"] for every project. */
  projects: string[];
  /** Token scope: one environment, or "*". */
  environment: string;
};

/** Unleash writes -42 as createdByUserId for changes made with an admin API token. */
export const ADMIN_TOKEN_USER_ID = -42;
/** Unleash writes -1337 for changes made by the system itself (schedulers, bootstrap). */
export const SYSTEM_USER_ID = -1337;

export type Actor = { userId: number | null; name: string };

export function actorOf(principal: Principal | null): Actor {
  if (!principal) return { userId: SYSTEM_USER_ID, name: "system" };
  if (principal.kind === "user") return { userId: principal.userId, name: principal.name };
  return { userId: ADMIN_TOKEN_USER_ID, name: principal.name };
}

export const SYSTEM_ACTOR: Actor = { userId: SYSTEM_USER_ID, name: "system" };
