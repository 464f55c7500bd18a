import type { Plugin } from "graphql-yoga";
import { errorResponse, STATUS_NAMES } from "../../../rest/errors.ts";
import { type AppDeps, callerOfRequest } from "../../context.ts";
import {
  AuthenticationRequired,
  DomainError,
  ForbiddenOperation,
  ValidationError,
} from "../../shared/errors.ts";
import { parseJsonBody, readBodyText } from "../../shared/http-body.ts";
import type { Principal } from "../access/principal.ts";
import type { SdkType } from "./batch.ts";
import { receiveClientMetrics, registerClient } from "./ingest.ts";

type Handler = (deps: AppDeps, principal: Principal, body: unknown, sdkType: SdkType) => Promise<void>;

/** The SDK metrics endpoints: path -> which SDK token they take and the service function. */
const ROUTES: Record<string, { sdkType: SdkType; handle: Handler }> = {
  "/api/client/register": { sdkType: "backend", handle: registerClient },
  "/api/client/metrics": { sdkType: "backend", handle: receiveClientMetrics },
  "/api/frontend/client/register": { sdkType: "frontend", handle: registerClient },
  "/api/frontend/client/metrics": { sdkType: "frontend", handle: receiveClientMetrics },
};

const TOKEN_KIND: Record<SdkType, Principal["kind"]> = {
  backend: "client-token",
  frontend: "frontend-token",
};

/**
 * THE SDK TOKEN CHECK of these endpoints (single place): a client token on /api/client, a
 * frontend token on /api/frontend; anything else is 401/403 in the spec's error body.
 */
async function sdkPrincipal(deps: AppDeps, request: Request, sdkType: SdkType): Promise<Principal> {
  const { principal } = await callerOfRequest(deps, request);
  if (!principal) throw new AuthenticationRequired();
  if (principal.kind !== TOKEN_KIND[sdkType]) {
    throw new ForbiddenOperation("invalid token: expected a different token type for this endpoint");
  }
  return principal;
}

/**
 * `POST /api/client/{register,metrics}` and `/api/frontend/client/{register,metrics}`: 202 once
 * the report is accepted (see ingestor.ts for what that promises); a malformed or oversized
 * body is refused whole with 400.
 */
export function sdkMetricsPlugin(deps: AppDeps): Plugin {
  return {
    async onRequest({ request, url, endResponse }) {
      const route = ROUTES[url.pathname];
      if (!route) return;
      if (request.method !== "POST") {
        return endResponse(
          errorResponse(405, "MethodNotAllowed", `${request.method} is not allowed here; use POST`),
        );
      }
      try {
        const principal = await sdkPrincipal(deps, request, route.sdkType);
        const body = await readMetricsBody(request, deps.config.http.maxBodyBytes);
        await route.handle(deps, principal, body, route.sdkType);
        endResponse(new Response(null, { status: 202 }));
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const { status, name } = STATUS_NAMES[error.code];
        endResponse(errorResponse(status, name, error.message));
      }
    },
  };
}

/** An oversized metrics body is malformed input for the SDKs' contract: 400, not 413. */
async function readMetricsBody(request: Request, limit: number): Promise<unknown> {
  try {
    return parseJsonBody(await readBodyText(request, limit));
  } catch (error) {
    if (error instanceof DomainError && error.code === "PAYLOAD_TOO_LARGE") {
      throw new ValidationError(error.message);
    }
    throw error;
  }
}
