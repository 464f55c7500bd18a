import type { IncomingMessage } from "node:http";
import type { Plugin } from "graphql-yoga";
import { type AppScope, adoptCaller, type Caller, headerCaller } from "../context.ts";

/** Where the caller resolved from the headers waits for yoga's request (see useHeaderCaller). */
const HEADER_CALLER = Symbol("vexil.headerCaller");
type WithHeaderCaller = IncomingMessage & { [HEADER_CALLER]?: Promise<Caller> };

/**
 * Whether the body of `request` may be read: it goes to a public route of the route table
 * (logging in, resetting a password, signing up with an invite, Edge's token validation, which
 * is rate-limited per address before its body is read), or its headers carry a credential that
 * works (a token in Authorization or X-API-Key, a session). Every other body (`/graphql`,
 * `/api/admin`, the SDK and OFREP APIs, unknown paths) waits for a credential. Its principal is
 * resolved once: yoga's request reuses it (useHeaderCaller).
 */
export function bodyMayBeRead(
  deps: AppScope,
  request: IncomingMessage,
  isPublic: (method: string, path: string) => boolean,
): Promise<boolean> {
  if (isPublic(request.method ?? "GET", pathOf(request.url))) return Promise.resolve(true);
  const headersOnly = headersRequest(request);
  if (!headersOnly) return Promise.resolve(false);
  const caller = headerCaller(deps, headersOnly);
  (request as WithHeaderCaller)[HEADER_CALLER] = caller;
  return caller.then((c) => c.principal !== null || c.apiKeyWorks === true);
}

/**
 * Hands the caller `bodyMayBeRead` resolved to the request yoga makes of the same HTTP request,
 * so that its credential is not looked up twice. First among the plugins.
 */
export function useHeaderCaller(): Plugin {
  return {
    onRequest({ request, serverContext }) {
      const caller = (serverContext as { req?: WithHeaderCaller } | undefined)?.req?.[HEADER_CALLER];
      if (caller) adoptCaller(request, caller);
    },
  };
}

/** The path as yoga will see it (dot segments resolved, no query). */
function pathOf(url: string | undefined): string {
  try {
    return new URL(url ?? "/", "http://localhost").pathname;
  } catch {
    return "/";
  }
}

/** A fetch Request with the headers of `request` and no body, as yoga's adapter builds its URL. */
function headersRequest(request: IncomingMessage): Request | null {
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    return new Request(`http://${request.headers.host ?? "localhost"}${request.url ?? "/"}`, {
      method: request.method,
      headers,
    });
  } catch {
    return null;
  }
}
