import { type AppDeps, callerOfRequest } from "../../context.ts";
import { AuthenticationRequired, DomainError, ForbiddenOperation } from "../../shared/errors.ts";
import type { Principal } from "../access/principal.ts";
import type { ClientScope } from "./client-features.read.ts";

export type SdkKind = "client-token" | "frontend-token";

/** An application's credential and what it may read. */
export type SdkCaller = { principal: Principal; scope: ClientScope };

/**
 * The one check of SDK-facing endpoints: the request must carry an API token of one of the
 * `accepted` kinds (in `Authorization`, with or without `Bearer `, or in `X-API-Key` as
 * OpenFeature's providers may send it); the answer is its scope, one environment and its
 * projects. No credential or an unknown one: AuthenticationRequired (401); another kind of
 * credential (an admin token, a user): ForbiddenOperation (403).
 */
export async function sdkCaller(
  deps: AppDeps,
  request: Request,
  accepted: readonly SdkKind[],
): Promise<SdkCaller> {
  const { principal } = await callerOfRequest(deps, withApiKeyHeader(request));
  if (!principal) throw new AuthenticationRequired();
  if (!accepted.includes(principal.kind as SdkKind)) {
    const kinds = accepted.map((k) => k.replace("-token", "")).join(" or ");
    throw new ForbiddenOperation(`invalid token: expected a ${kinds} token for this endpoint`);
  }
  const projects = principal.projects.includes("*") ? "*" : principal.projects;
  return { principal, scope: { environment: principal.environment, projects } };
}

/** `X-API-Key` is read as the Authorization value when no Authorization header is sent. */
function withApiKeyHeader(request: Request): Request {
  const key = request.headers.get("x-api-key");
  if (!key || request.headers.has("authorization")) return request;
  const headers = new Headers(request.headers);
  headers.set("authorization", key);
  headers.delete("cookie");
  return new Request(request.url, { method: request.method, headers });
}

export function isSdkAuthError(error: unknown): error is DomainError {
  return error instanceof DomainError && (error.code === "UNAUTHENTICATED" || error.code === "FORBIDDEN");
}
