import type { AppScope } from "../../context.ts";
import { AuthenticationRequired, ForbiddenOperation } from "../../shared/errors.ts";
import { tokenFromHeader } from "../access/credentials.logic.ts";
import type { Principal } from "../access/principal.types.ts";
import type { ClientScope } from "./client-features.read.ts";

// A write, as access's credentials.write.ts: resolving a token stamps its "last seen" (at most
// once a minute, through the remembered tokens), so no read may call it.

export type SdkKind = "client-token" | "frontend-token" | "admin-token";

/**
 * The environment an admin token reads where it is accepted (Unleash 8.2's client API): the
 * `environment` query parameter, else Unleash's `default`. An admin token's own scope is `*`.
 */
const ADMIN_DEFAULT_ENVIRONMENT = "default";

/** An application's credential and what it may read. */
export type SdkCaller = { principal: Principal; scope: ClientScope };

/**
 * The one check of SDK-facing endpoints: the request must carry an API token of one of the
 * `accepted` kinds (in `Authorization`, with or without `Bearer `, or in `X-API-Key` as
 * OpenFeature's providers may send it); the answer is its scope, one environment and its
 * projects (an admin token, where accepted: every project of the environment asked for, see
 * ADMIN_DEFAULT_ENVIRONMENT). No credential or an unknown one: AuthenticationRequired (401);
 * another kind of credential (an admin token where not accepted, a user): ForbiddenOperation (403).
 */
export async function sdkCaller(
  deps: Pick<AppScope, "services">,
  request: Request,
  accepted: readonly SdkKind[],
): Promise<SdkCaller> {
  const secret = tokenFromHeader(request.headers.get("authorization") ?? request.headers.get("x-api-key"));
  // Personal access tokens are not SDK credentials.
  const principal = secret && !secret.startsWith("user:") ? await deps.services.tokens.resolve(secret) : null;
  if (!principal) throw new AuthenticationRequired();
  if (!accepted.includes(principal.kind as SdkKind)) {
    const kinds = accepted.map((k) => k.replace("-token", "")).join(" or ");
    throw new ForbiddenOperation(`invalid token: expected a ${kinds} token for this endpoint`);
  }
  const projects = principal.projects.includes("*") ? "*" : principal.projects;
  if (principal.kind === "admin-token") {
    const asked = new URL(request.url).searchParams.get("environment");
    return { principal, scope: { environment: asked || ADMIN_DEFAULT_ENVIRONMENT, projects } };
  }
  return { principal, scope: { environment: principal.environment, projects } };
}
