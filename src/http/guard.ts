import type { Plugin } from "graphql-yoga";
import { errorResponse, STATUS_NAMES } from "../shared/error-response.ts";
import { DomainError } from "../shared/errors.ts";
import type { Logger } from "../shared/logger.ts";
import { requestIdOf } from "./request-log.ts";

/**
 * An error thrown from a plugin's `onRequest` (REST, /auth, probes) escapes yoga's own error
 * handling and would reach the HTTP adapter, which answers it with a plain-text stack trace.
 * This wraps such a hook: a domain error becomes its REST error body, anything else is logged
 * and answered 500 with the spec's error body and no detail.
 */
// biome-ignore lint/suspicious/noExplicitAny: any plugin context; only onRequest is wrapped
export function guardOnRequest<T extends Plugin<any, any>>(plugin: T, logger: Logger): T {
  const onRequest = plugin.onRequest;
  if (!onRequest) return plugin;
  const answer = (payload: Parameters<typeof onRequest>[0], error: unknown) =>
    payload.endResponse(responseForThrown(error, logger, payload.request));
  return {
    ...plugin,
    // A hook that returns at once stays synchronous: yoga then goes on in the same turn, where
    // an async wrapper cost every request a promise and a turn per plugin.
    onRequest(payload) {
      try {
        const done = onRequest(payload) as unknown;
        if (typeof (done as PromiseLike<void> | undefined)?.then === "function") {
          return Promise.resolve(done).catch((error: unknown) => answer(payload, error));
        }
      } catch (error) {
        answer(payload, error);
      }
    },
  };
}

export function responseForThrown(error: unknown, logger: Logger, request: Request): Response {
  if (error instanceof DomainError) {
    const { status } = STATUS_NAMES[error.code];
    const response = errorResponse(
      status,
      error.name,
      error.message,
      { details: error.details },
      requestIdOf(request),
    );
    // The rest of an oversized body is not worth reading: close the connection after answering.
    if (error.code === "PAYLOAD_TOO_LARGE") response.headers.set("connection", "close");
    // A refusal that says when to try again (a login limit) says it in Retry-After too.
    const retryAfter = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    if (typeof retryAfter === "number") response.headers.set("retry-after", String(retryAfter));
    return response;
  }
  logger.error("unexpected error", {
    requestId: requestIdOf(request),
    method: request.method,
    path: safePath(request.url),
    error: String((error as Error)?.stack ?? error),
  });
  return errorResponse(500, "InternalError", "Unexpected error.", {}, requestIdOf(request));
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "?";
  }
}
