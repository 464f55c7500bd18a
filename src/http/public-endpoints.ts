import type { Plugin } from "graphql-yoga";
import { errorResponse, STATUS_NAMES } from "../shared/error-response.ts";
import { DomainError, NotFoundError } from "../shared/errors.ts";
import { requestIdOf } from "./request-log.ts";

/** Answers a request when its method and path are the endpoint's own; else null. */
export type PublicEndpoint = (request: Request, url: URL, serverContext: object) => Promise<Response> | null;

/**
 * The browser-facing endpoints outside `/api/admin` that anyone may call without a credential
 * (password login and logout, password reset, invite sign-up), under the path `prefixes`.
 *
 * They are not REST routes running GraphQL operations, for two reasons: the `/graphql` door
 * (graphql-gate.ts) refuses every operation without a credential, by design, and these are
 * the requests that come before one; and login and logout set or clear the HttpOnly session
 * cookie, which an operation's result cannot. So each module exports its endpoints
 * (access/login.endpoints.ts, users/password-reset.endpoints.ts, invites/invites.endpoints.ts), which read the
 * request and call the module's functions; this plugin only dispatches them and answers a
 * DomainError in the REST error shape (`headersOf` adds headers to it, e.g. Retry-After).
 * A path under a prefix that no endpoint takes is 404.
 */
export function publicEndpointsPlugin(
  prefixes: readonly string[],
  endpoints: readonly PublicEndpoint[],
  headersOf: (error: DomainError) => Record<string, string> = () => ({}),
): Plugin {
  const answer = (request: Request, url: URL, serverContext: object): Promise<Response> => {
    for (const serve of endpoints) {
      const pending = serve(request, url, serverContext);
      if (pending) return pending;
    }
    throw new NotFoundError(`No such path: ${request.method} ${url.pathname}`);
  };
  return {
    async onRequest({ request, url, endResponse, serverContext }) {
      if (!prefixes.some((prefix) => url.pathname.startsWith(prefix))) return;
      try {
        endResponse(await answer(request, url, serverContext));
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        const response = errorResponse(
          STATUS_NAMES[error.code].status,
          error.name,
          error.message,
          { details: error.details },
          requestIdOf(request),
        );
        for (const [name, value] of Object.entries(headersOf(error))) response.headers.set(name, value);
        endResponse(response);
      }
    },
  };
}

/** An endpoint for one method and path: `handle` runs only for that request. */
export function endpoint(
  method: string,
  path: string,
  handle: (request: Request, url: URL, serverContext: object) => Promise<Response>,
): PublicEndpoint {
  return (request, url, serverContext) =>
    request.method === method && url.pathname === path ? handle(request, url, serverContext) : null;
}
